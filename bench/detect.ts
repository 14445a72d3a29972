/**
 * Mining speed and memory: N sessions × 200 calls, at three sizes.
 * Run: npx tsx bench/detect.ts
 * Target: 10,000 × 200 (2 million calls) in under 5 s and under 1 GiB RSS.
 */
import { loadavg } from 'node:os';
import { minePatterns } from '../src/core/patterns/mine.js';
import { seededRandom } from '../test/helpers/random.js';

type Workload = 'zipf-200' | 'uniform-50';

/** Sessions of noise (Zipf-distributed over 200 tools, or uniform over 50) with 5 procedures planted in 10–40% of sessions. */
function generate(
  sessions: number,
  calls: number,
  workload: Workload,
): { sessions: Int32Array[]; vocabulary: string[]; planted: string[][] } {
  const random = seededRandom(sessions);
  const noiseSize = workload === 'zipf-200' ? 200 : 50;
  const vocabulary = Array.from({ length: noiseSize + 40 }, (_, i) => (i < noiseSize ? `tool_${i}` : `step_${i - noiseSize}`));
  const weights = Array.from({ length: noiseSize }, (_, i) => (workload === 'zipf-200' ? 1 / (i + 1) : 1));
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
  const procedures = Array.from({ length: 5 }, (_, p) => Array.from({ length: 3 + p }, (_, i) => noiseSize + p * 8 + i));
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
console.log('workload     sessions  calls      wall ms   cpu ms  calls/s(cpu)  patterns  planted found  peak RSS MiB');
for (const workload of ['zipf-200', 'uniform-50'] as const) {
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
  }
}
