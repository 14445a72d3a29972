/**
 * Side by side with Hermes Agent's curator (issue 18, goal 3): the same library of agent-created skills,
 * a first pass that makes transitions and a steady pass with nothing to do, ours (runCurator, in-process)
 * and the peer's (agent.curator.apply_automatic_transitions, in one Python process, bench/hermes/curator-pass.py).
 * The peer's code is never part of this project: set HERMES_AGENT to a checkout of NousResearch/hermes-agent
 * (or a directory holding its agent/curator.py, tools/skill_usage.py and what they import).
 * Run: `HERMES_AGENT=/path/to/hermes-agent npx tsx bench/hermes-curator.ts [skills] [--peer-steady-only]` (default 1000).
 * `--peer-steady-only` writes the peer's library as its first pass leaves it (stale ones marked, archived ones moved
 * under skills/.archive/) and runs only its steady pass: its first pass rescans the library once per transition,
 * which at 5,000 skills takes many minutes. Without HERMES_AGENT it says so and exits 0.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCurator } from '../src/services/curator/run-curator.js';

const peer = process.env.HERMES_AGENT;
const args = process.argv.slice(2);
const peerSteadyOnly = args.includes('--peer-steady-only');
const count = Number(args.find((a) => !a.startsWith('--')) ?? 1_000);
const now = new Date('2026-11-30T00:00:00Z');
const dayMs = 86_400_000;
const steadySamples = 7;

if (!peer) {
  console.log('bench/hermes-curator.ts: skipped, HERMES_AGENT is not set (a checkout of NousResearch/hermes-agent to compare with).');
  process.exit(0);
}

/** `i`'s days since last use: most recent, about one in eight past the 30-day stale line, a few past the 90-day archive line. */
const idleDays = (i: number) => (i % 8 === 0 ? 40 + (i % 70) : i % 25);
const lastUse = (i: number) => new Date(now.getTime() - idleDays(i) * dayMs).toISOString();
/** What a pass with the default 30/90-day thresholds (both sides' default) leaves skill `i` in. */
const stateAfterFirst = (i: number) => (idleDays(i) >= 90 ? 'archived' : idleDays(i) >= 30 ? 'stale' : 'active');
const skillText = (name: string) =>
  `---\nname: ${name}\ndescription: Generated skill ${name}. Use when benchmarking.\n---\n# ${name}\n\n1. Do it.\n`;

/** Hermes's layout: $HERMES_HOME/skills/<name>/SKILL.md with the sidecar skills/.usage.json; `afterFirst`: as its first pass leaves it. */
function hermesLibrary(home: string, afterFirst: boolean): void {
  const usage: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    const name = `skill-${i}`;
    const state = afterFirst ? stateAfterFirst(i) : 'active';
    const dir = join(home, 'skills', ...(state === 'archived' ? ['.archive', name] : [name]));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'), skillText(name));
    // created_by: 'agent' is the peer's opt-in marker (skill_manage create writes it); without it the pass skips the skill.
    usage[name] = {
      created_by: 'agent',
      use_count: 1,
      last_used_at: lastUse(i),
      created_at: new Date(now.getTime() - 200 * dayMs).toISOString(),
      state,
      ...(state === 'archived' ? { archived_at: now.toISOString() } : {}),
    };
  }
  writeFileSync(join(home, 'skills', '.usage.json'), JSON.stringify(usage));
}

/** The peer's library after its own first pass must be what `hermesLibrary(…, true)` writes, or the steady-only mode measures something else. */
function checkPeerFirstPass(home: string): void {
  const usage = JSON.parse(readFileSync(join(home, 'skills', '.usage.json'), 'utf8')) as Record<string, { state?: string }>;
  const archived = new Set(readdirSync(join(home, 'skills', '.archive')));
  for (let i = 0; i < count; i++) {
    const name = `skill-${i}`;
    const expected = stateAfterFirst(i);
    if (usage[name]?.state !== expected || archived.has(name) !== (expected === 'archived'))
      throw new Error(`the peer's first pass left ${name} ${usage[name]?.state ?? 'unrecorded'}, expected ${expected}`);
  }
}

/** Ours: the same skills, created by the agent (one commit with trailers each, via fast-import), the same uses. */
function ourLibrary(dir: string): void {
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const when = Math.floor(now.getTime() / 1000) - 200 * 86_400;
  const chunks: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = `skill-${i}`;
    const message = `skill(create): ${name}\n\nSkill-Action: create\nSkill-Name: ${name}\nSkill-Actor: agent\nSkill-Source: background\n`;
    chunks.push(
      `commit refs/heads/main\nmark :${i + 1}\ncommitter Bench <bench@example.com> ${when + i} +0000\n${data(message)}${i > 0 ? `from :${i}\n` : ''}M 100644 inline skills/${name}/SKILL.md\n${data(skillText(name))}`,
    );
  }
  const skills = Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`skill-${i}`, { use_count: 1, last_used_at: lastUse(i).replace(/\.\d{3}Z$/, 'Z') }]),
  );
  chunks.push(
    `commit refs/heads/main\nmark :${count + 1}\ncommitter Bench <bench@example.com> ${when + count} +0000\n${data('usage\n')}from :${count}\nM 100644 inline .skillgarden/usage/agent.json\n${data(JSON.stringify({ version: 1, writer: 'agent', skills }))}`,
  );
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: chunks.join('') });
  execFileSync('git', ['reset', '-q', '--hard'], { cwd: dir });
}

/** What the peer's `apply_automatic_transitions` returns. */
interface PeerCounts {
  marked_stale: number;
  archived: number;
  reactivated: number;
  checked: number;
  seeded: number;
}

/** CPU of the git processes we spawned and waited for (cutime + cstime of /proc/self/stat, 100 ticks a second); 0 off Linux. */
function childCpuMs(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

/** Wall and CPU (user+sys of this process and of the git processes it waited for) of one call. */
async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const children = childCpuMs();
  const start = performance.now();
  const result = await fn();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { result, ms, cpuMs: (used.user + used.system) / 1000 + childCpuMs() - children };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const spread = (ms: number[], cpu: number[]) =>
  `${median(ms).toFixed(1)} ms (min ${Math.min(...ms).toFixed(1)}), CPU ${median(cpu).toFixed(1)} ms`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const peerCommit = spawnSync('git', ['-C', peer, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout.trim() || 'unknown';
const home = mkdtempSync(join(tmpdir(), 'sg-bench-hermes-'));
const ours = mkdtempSync(join(tmpdir(), 'sg-bench-hermes-ours-'));
try {
  console.log(`load average at start ${load()}`);
  hermesLibrary(home, peerSteadyOnly);
  const result = spawnSync(
    'python3',
    [
      join(import.meta.dirname, 'hermes', 'curator-pass.py'),
      home,
      now.toISOString(),
      String(steadySamples),
      ...(peerSteadyOnly ? ['--steady-only'] : []),
    ],
    { encoding: 'utf8', env: { ...process.env, HERMES_AGENT: peer } },
  );
  if (result.status !== 0) {
    console.log(`Hermes Agent (${peerCommit}) could not run its curator pass here (exit ${result.status}):\n${result.stderr.slice(-2000)}`);
    process.exit(1);
  }
  const theirs = JSON.parse(result.stdout.trim().split('\n').at(-1) as string) as {
    first: PeerCounts | null;
    first_ms: number | null;
    first_cpu_ms: number | null;
    steady: PeerCounts;
    steady_changes: number;
    steady_ms: number[];
    steady_cpu_ms: number[];
  };
  if (theirs.steady_changes !== 0) throw new Error(`the peer's steady pass changed something: ${JSON.stringify(theirs.steady)}`);
  if (!peerSteadyOnly) checkPeerFirstPass(home);

  ourLibrary(ours);
  const first = await timed(() => runCurator({ repoDir: ours, now }));
  const transitions = first.result.report.transitions.length;
  const expected = Array.from({ length: count }, (_, i) => stateAfterFirst(i)).filter((s) => s !== 'active').length;
  if (transitions !== expected) throw new Error(`our first pass made ${transitions} transitions, expected ${expected}`);
  if (theirs.first && theirs.first.marked_stale + theirs.first.archived !== expected)
    throw new Error(`the peer's first pass made ${JSON.stringify(theirs.first)}, expected ${expected} transitions`);
  const steady = [];
  for (let s = 0; s < steadySamples; s++) steady.push(await timed(() => runCurator({ repoDir: ours, now, dryRun: true })));
  if (steady.some((c) => c.result.report.transitions.length !== 0)) throw new Error('our steady pass found something to do');

  const ratio = (theirsMs: number, oursMs: number) => `${(theirsMs / oursMs).toFixed(1)}×`;
  const oursSteady = median(steady.map((c) => c.ms));
  console.log(
    `Hermes Agent ${peerCommit}, ${count} skills, ${expected} transitions (${JSON.stringify(theirs.first ?? 'peer first pass not run')})`,
  );
  console.log('| pass | Hermes Agent | skillgarden | Hermes ÷ ours, wall | CPU |\n|---|---:|---:|---:|---:|');
  console.log(
    theirs.first_ms === null
      ? `| first | not run (--peer-steady-only) | ${first.ms.toFixed(0)} ms, CPU ${first.cpuMs.toFixed(0)} ms | — | — |`
      : `| first | ${theirs.first_ms.toFixed(0)} ms, CPU ${(theirs.first_cpu_ms as number).toFixed(0)} ms | ${first.ms.toFixed(0)} ms, CPU ${first.cpuMs.toFixed(0)} ms | ${ratio(theirs.first_ms, first.ms)} | ${ratio(theirs.first_cpu_ms as number, first.cpuMs)} |`,
  );
  console.log(
    `| steady, median of ${steadySamples} | ${spread(theirs.steady_ms, theirs.steady_cpu_ms)} | ${spread(
      steady.map((c) => c.ms),
      steady.map((c) => c.cpuMs),
    )} | ${ratio(median(theirs.steady_ms), oursSteady)} | ${ratio(median(theirs.steady_cpu_ms), median(steady.map((c) => c.cpuMs)))} |`,
  );
  console.log(`load average at end ${load()}`);
} finally {
  rmSync(home, { recursive: true, force: true });
  rmSync(ours, { recursive: true, force: true });
}
