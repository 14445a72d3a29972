/**
 * Mining speed and memory: N sessions × 200 calls, at three sizes, on three shapes:
 * Zipf over 200 tools, uniform over 50, and Zipf over a dozen tools (how agents'
 * transcripts really look: Read, Bash, Edit, Grep… with procedures made of those
 * same tools). The dozen-tool shape is the hard one: nearly every short window is
 * frequent, so the row also shows how many candidates each window length yields.
 * Run: npx tsx bench/detect.ts [shape…]   (shapes: zipf-200 uniform-50 dozen-12)
 * This measures the miner alone (a function, in-process, on token ids already made): the `detect` command
 * as a person runs it (reading, mining, drafting, the report) is bench/detect-scale.ts.
 */
import { loadavg } from 'node:os';
import { countWindows, packSessions } from '../src/core/patterns/count-windows.js';
import { minePatterns } from '../src/core/patterns/mine.js';
import { collapseRuns } from '../src/core/patterns/tokens.js';
import { seededRandom } from '../test/helpers/random.js';

const workloads = ['zipf-200', 'uniform-50', 'dozen-12'] as const;
type Workload = (typeof workloads)[number];

/** A dozen tools, as a coding agent's transcripts use them. */
const dozen = ['Read', 'Bash', 'Edit', 'Grep', 'Glob', 'Write', 'TodoWrite', 'Task', 'WebFetch', 'MultiEdit', 'LS', 'WebSearch'];

/**
 * Sessions of noise (Zipf-distributed over 200 tools, uniform over 50, or Zipf over a dozen) with 5 procedures
 * planted in 10–40% of sessions: of their own step tools, or of the dozen tools themselves for `dozen-12`.
 */
function generate(
  sessions: number,
  calls: number,
  workload: Workload,
): { sessions: Int32Array[]; vocabulary: string[]; planted: string[][] } {
  const random = seededRandom(sessions);
  const noiseSize = workload === 'zipf-200' ? 200 : workload === 'dozen-12' ? dozen.length : 50;
  const vocabulary =
    workload === 'dozen-12'
      ? [...dozen]
      : Array.from({ length: noiseSize + 40 }, (_, i) => (i < noiseSize ? `tool_${i}` : `step_${i - noiseSize}`));
  const weights = Array.from({ length: noiseSize }, (_, i) => (workload === 'uniform-50' ? 1 : 1 / (i + 1)));
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative: number[] = [];
  weights.reduce((sum, w, i) => (cumulative[i] = sum + w / total), 0);
  const pick = () => {
    const r = random();
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) < r) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const procedures =
    workload === 'dozen-12'
      ? // Procedures of the common tools, no tool twice in a row (runs collapse): e.g. Grep → Read → Edit → Bash.
        Array.from({ length: 5 }, (_, p) => Array.from({ length: 3 + p }, (_, i) => (p * 5 + i * 7 + ((i * i) % 5)) % noiseSize)).map(
          (procedure) => procedure.map((id, i) => (i > 0 && id === procedure[i - 1] ? (id + 1) % noiseSize : id)),
        )
      : Array.from({ length: 5 }, (_, p) => Array.from({ length: 3 + p }, (_, i) => noiseSize + p * 8 + i));
  const out: Int32Array[] = [];
  for (let s = 0; s < sessions; s += 1) {
    const session = new Int32Array(calls);
    for (let i = 0; i < calls; i += 1) session[i] = pick();
    procedures.forEach((procedure, p) => {
      if (random() < 0.1 + p * 0.075) session.set(procedure, Math.floor(random() * (calls - procedure.length)));
    });
    out.push(session);
  }
  return {
    sessions: out,
    vocabulary,
    planted: procedures.map((p) => p.map((id) => vocabulary[id] as string)),
  };
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const sizes = [2_500, 5_000, 10_000];
const callsPerSession = 200;

console.log(`node ${process.version}, ${callsPerSession} calls per session, default options (minSessions 3, windows 2–8, limit 100)`);
// CPU time is shown beside wall time: on a shared machine wall time mostly measures the neighbours.
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
const chosen = process.argv.length > 2 ? (process.argv.slice(2) as Workload[]) : [...workloads];
console.log('workload     sessions  calls      wall ms   cpu ms  calls/s(cpu)  patterns  planted found  peak RSS MiB');
const levelRows: string[] = [];
for (const workload of chosen) {
  for (const size of sizes) {
    const input = generate(size, callsPerSession, workload);
    globalThis.gc?.();
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    const patterns = minePatterns(input);
    const ms = performance.now() - start;
    const cpu = process.cpuUsage(cpuStart);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const calls = size * callsPerSession;
    const found = input.planted.filter((tools) => patterns.some((p) => p.tools.join() === tools.join())).length;
    // maxRSS is the process's peak so far (KiB): sizes run smallest first, so each row is that size's peak.
    const peak = process.resourceUsage().maxRSS * 1024;
    console.log(
      `${workload.padEnd(12)} ${String(size).padStart(8)}  ${String(calls).padStart(9)}  ${ms.toFixed(0).padStart(7)}  ${cpuMs.toFixed(0).padStart(7)}  ${((calls / cpuMs) * 1000).toExponential(2).padStart(12)}  ${String(patterns.length).padStart(8)}  ${`${found}/${input.planted.length}`.padStart(13)}  ${mib(peak).padStart(12)}`,
    );
    if (size === sizes[sizes.length - 1]) {
      // Outside the timing: the frequent windows per length (what the miner has to rank), for the report.
      const levels = countWindows(packSessions(input.sessions.map((s) => collapseRuns(s))), { minSessions: 3, maxLength: 8 });
      levelRows.push(`${workload} at ${calls} calls: ${levels.map((l) => `L${l.length} ${l.sessions.length}`).join(', ')}`);
    }
  }
}
console.log('frequent windows (seen in ≥ 3 sessions) per length, largest size:');
for (const row of levelRows) console.log(`  ${row}`);
