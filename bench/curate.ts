/**
 * The curator's pass over 1,000 / 10,000 / 50,000 agent-created skills with
 * usage from 100 writers: read (discovery, history index, usage, references),
 * plan (the lifecycle), and a real run's commits. Run: `npx tsx bench/curate.ts [sizes…]`.
 *
 * `npx tsx bench/curate.ts steady [sizes…]` (default 1000 5000 10000): the steady pass, a library where every skill
 * was used lately (nothing to do), after one real run: in-process, and `skillgarden curate --dry-run` as its own
 * process (the built CLI, bin/skillgarden.js), with its peak RSS (/usr/bin/time -v). The process is the figure a
 * user feels (the floor: 1,000 skills under 1 s).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { planLifecycle } from '../src/core/lifecycle/index.js';
import { readLibrary } from '../src/services/curator/read-library.js';
import { runCurator } from '../src/services/curator/run-curator.js';
import { generateLibrary } from './curate-library.js';

const now = new Date('2026-11-30T00:00:00Z');
const steadyMode = process.argv[2] === 'steady';
const sizes = process.argv.slice(2).map(Number).filter(Boolean);

const time = async <T>(fn: () => Promise<T> | T) => {
  const start = performance.now();
  const result = await fn();
  return { result, ms: performance.now() - start };
};

/** Wall and CPU time of `runs` runs (the first, cold one, is not among them): on a shared machine CPU time is the steadier. */
async function sample(runs: number, fn: () => Promise<unknown>): Promise<{ cpu: number; wallMin: number; wall: number }> {
  await fn();
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    const cpu = process.cpuUsage();
    walls.push((await time(fn)).ms);
    const used = process.cpuUsage(cpu);
    cpus.push((used.user + used.system) / 1000);
  }
  const median = (list: number[]) => [...list].sort((x, y) => x - y)[Math.floor(list.length / 2)] as number;
  return { cpu: median(cpus), wallMin: Math.min(...walls), wall: median(walls) };
}

const range = (s: { cpu: number; wallMin: number; wall: number }) =>
  `${s.cpu.toFixed(1)} ms CPU (wall ${s.wallMin.toFixed(0)}, median ${s.wall.toFixed(0)})`;

/** `skillgarden curate --dry-run` as its own process: wall time and peak RSS from /usr/bin/time -v. */
function processPass(dir: string): { ms: number; cpuMs: number; rssMiB: number } {
  const cli = join(import.meta.dirname, '..', 'bin', 'skillgarden.js');
  const start = performance.now();
  const run = spawnSync(
    '/usr/bin/time',
    ['-v', process.execPath, cli, 'curate', '--dry-run', '--json', '--repo', dir, '--now', now.toISOString()],
    // stdout ignored: the JSON report at 10,000 skills is over spawnSync's 1 MiB buffer, which kills the child.
    { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const ms = performance.now() - start;
  if (run.status !== 0) throw new Error(`curate --dry-run failed (${run.status}): ${run.stderr.slice(-500)}`);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)?.[1];
  const seconds = (label: string) => Number(new RegExp(`${label} time \\(seconds\\): ([\\d.]+)`).exec(run.stderr)?.[1]);
  return { ms, cpuMs: (seconds('User') + seconds('System')) * 1000, rssMiB: Number(rss) / 1024 };
}

async function steady(list: number[]): Promise<void> {
  if (!existsSync(join(import.meta.dirname, '..', 'lib')))
    console.error('bench/curate.ts: no lib/ (run `npm run build` first): the process column needs it');
  const rows = [
    '| skills | steady pass (dry run, in-process) | steady real run (one bookkeeping commit) | as a process (`curate --dry-run`) | process peak RSS |',
    '|---:|---:|---:|---:|---:|',
  ];
  console.error(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const size of list) {
    const dir = mkdtempSync(join(tmpdir(), 'sg-bench-curate-'));
    try {
      generateLibrary(dir, size, now, true);
      const first = await runCurator({ repoDir: dir, now });
      if (first.report.transitions.length !== 0)
        throw new Error(`expected nothing to do, got ${first.report.transitions.length} transitions`);
      const plain = await sample(7, () => runCurator({ repoDir: dir, now, dryRun: true }));
      const real = await sample(3, () => runCurator({ repoDir: dir, now }));
      processPass(dir);
      const processes = [processPass(dir), processPass(dir), processPass(dir)].sort((a, b) => a.ms - b.ms);
      const mid = processes[1] as { ms: number; rssMiB: number };
      const cpu = processes.map((p) => p.cpuMs).sort((a, b) => a - b)[1] as number;
      rows.push(
        `| ${size.toLocaleString('en-US')} | ${range(plain)} | ${range(real)} | ${cpu.toFixed(0)} ms CPU (wall ${mid.ms.toFixed(0)} ms, ${processes[0]?.ms.toFixed(0)}–${processes[2]?.ms.toFixed(0)}) | ${Math.max(...processes.map((p) => p.rssMiB)).toFixed(0)} MiB |`,
      );
      console.error(rows.at(-1));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log(rows.join('\n'));
  console.error(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

if (steadyMode) await steady(sizes.length ? sizes : [1_000, 5_000, 10_000]);
else await full(sizes.length ? sizes : [1_000, 10_000, 50_000]);

async function full(list: number[]): Promise<void> {
  const rows = [
    '| skills | generate | read, cold history | read, warm | plan (pure) | transitions | dry run total | real run (commits) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const size of list) {
    const dir = mkdtempSync(join(tmpdir(), 'sg-bench-curate-'));
    try {
      const gen = await time(() => generateLibrary(dir, size, now));
      const cold = await time(() => readLibrary(dir, { now }));
      const warm = await time(() => readLibrary(dir, { now }));
      const plan = await time(() => planLifecycle(warm.result.skills, warm.result.config, now));
      const transitions = plan.result.decisions.filter((d) => d.kind === 'transition').length;
      const dry = await time(() => runCurator({ repoDir: dir, now, dryRun: true }));
      const real = size <= 1_000 ? await time(() => runCurator({ repoDir: dir, now })) : undefined;
      rows.push(
        `| ${size.toLocaleString('en-US')} | ${(gen.ms / 1000).toFixed(1)} s | ${cold.ms.toFixed(0)} ms | ${warm.ms.toFixed(0)} ms | ${plan.ms.toFixed(1)} ms | ${transitions.toLocaleString('en-US')} | ${dry.ms.toFixed(0)} ms | ${real ? `${(real.ms / 1000).toFixed(1)} s (${(real.ms / transitions).toFixed(1)} ms/commit)` : '—'} |`,
      );
      console.error(rows.at(-1));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log(rows.join('\n'));
}
