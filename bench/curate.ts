/**
 * The curator's pass over 1,000 / 10,000 / 50,000 agent-created skills with
 * usage from 100 writers: read (discovery, history index, usage, references),
 * plan (the lifecycle), and a real run's commits. Run: `npx tsx bench/curate.ts [sizes…]`.
 *
 * `npx tsx bench/curate.ts steady [sizes…]` (default 1000 5000 10000): the steady pass, a library where every skill
 * was used lately (nothing to do), after one real run: in-process with the cache (.git/skillgarden/curator-cache.json)
 * and without it, and `skillgarden curate --dry-run` as its own process (the built CLI, bin/skillgarden.js), with its
 * peak RSS (/usr/bin/time -v).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planLifecycle } from '../src/core/lifecycle/index.js';
import { readLibrary } from '../src/services/curator/read-library.js';
import { runCurator } from '../src/services/curator/run-curator.js';

const now = new Date('2026-11-30T00:00:00Z');
const day = 86_400;
const steadyMode = process.argv[2] === 'steady';
const sizes = process.argv.slice(2).map(Number).filter(Boolean);

/**
 * One commit per agent-created skill (with trailers), then one commit with 100 writers' usage files: via git fast-import.
 * `recent`: every skill used within the last 20 days, so a pass has nothing to do.
 */
function generate(dir: string, count: number, recent = false): void {
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  const chunks: string[] = [];
  const start = Math.floor(now.getTime() / 1000) - 200 * day;
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  for (let i = 0; i < count; i++) {
    const name = `skill-${i}`;
    const message = `skill(create): ${name} — create\n\nSkill-Action: create\nSkill-Name: ${name}\nSkill-Actor: agent\nSkill-Source: background\n`;
    const body = `---\nname: ${name}\ndescription: Generated skill ${i}. Use when benchmarking.\n---\n# ${name}\n\n1. Do the thing.\n`;
    const when = start + Math.floor((i / count) * 190 * day);
    chunks.push(
      `commit refs/heads/main\nmark :${i + 1}\ncommitter Bench <bench@example.com> ${when} +0000\n${data(message)}${i > 0 ? `from :${i}\n` : ''}M 100644 inline skills/${name}/SKILL.md\n${data(body)}`,
    );
  }
  const usageLines: string[] = [];
  for (let w = 0; w < 100; w++) {
    const skills: Record<string, unknown> = {};
    for (let i = w; i < count; i += recent ? 100 : 20)
      skills[`skill-${i}`] = {
        use_count: 1 + (i % 5),
        last_used_at: new Date(now.getTime() - ((i * 7 + w) % (recent ? 20 : 150)) * day * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      };
    usageLines.push(
      `M 100644 inline .skillgarden/usage/writer-${w}.json\n${data(JSON.stringify({ version: 1, writer: `writer-${w}`, skills }))}`,
    );
  }
  chunks.push(
    `commit refs/heads/main\nmark :${count + 1}\ncommitter Bench <bench@example.com> ${start + 195 * day} +0000\n${data('usage from 100 writers\n')}from :${count}\n${usageLines.join('')}`,
  );
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: chunks.join('') });
  execFileSync('git', ['reset', '-q', '--hard'], { cwd: dir });
}

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
function processPass(dir: string): { ms: number; rssMiB: number } {
  const cli = join(import.meta.dirname, '..', 'bin', 'skillgarden.js');
  const start = performance.now();
  const run = spawnSync(
    '/usr/bin/time',
    ['-v', process.execPath, cli, 'curate', '--dry-run', '--json', '--repo', dir, '--now', now.toISOString()],
    {
      encoding: 'utf8',
    },
  );
  const ms = performance.now() - start;
  if (run.status !== 0) throw new Error(`curate --dry-run failed (${run.status}): ${run.stderr.slice(-500)}`);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)?.[1];
  return { ms, rssMiB: Number(rss) / 1024 };
}

async function steady(list: number[]): Promise<void> {
  if (!existsSync(join(import.meta.dirname, '..', 'lib')))
    console.error('bench/curate.ts: no lib/ (run `npm run build` first): the process column needs it');
  const rows = [
    '| skills | steady pass, cache (dry run) | steady pass, no cache (dry run) | steady real run (one bookkeeping commit) | as a process (`curate --dry-run`) | process peak RSS |',
    '|---:|---:|---:|---:|---:|---:|',
  ];
  for (const size of list) {
    const dir = mkdtempSync(join(tmpdir(), 'sg-bench-curate-'));
    try {
      generate(dir, size, true);
      const first = await runCurator({ repoDir: dir, now });
      if (first.report.transitions.length !== 0)
        throw new Error(`expected nothing to do, got ${first.report.transitions.length} transitions`);
      const cached = await sample(7, () => runCurator({ repoDir: dir, now, dryRun: true }));
      const plain = await sample(5, () => runCurator({ repoDir: dir, now, dryRun: true, cache: false }));
      const real = await sample(3, () => runCurator({ repoDir: dir, now }));
      processPass(dir);
      const processes = [processPass(dir), processPass(dir), processPass(dir)].sort((a, b) => a.ms - b.ms);
      const mid = processes[1] as { ms: number; rssMiB: number };
      rows.push(
        `| ${size.toLocaleString('en-US')} | ${range(cached)} | ${range(plain)} | ${range(real)} | ${mid.ms.toFixed(0)} ms (${processes[0]?.ms.toFixed(0)}–${processes[2]?.ms.toFixed(0)}) | ${Math.max(...processes.map((p) => p.rssMiB)).toFixed(0)} MiB |`,
      );
      console.error(rows.at(-1));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log(rows.join('\n'));
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
      const gen = await time(() => generate(dir, size));
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
