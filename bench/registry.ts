/**
 * Runtime registry speed at growing library sizes: cold load, Layer-1
 * reminder (cached and rebuilt), Layer-2 load, refresh with nothing changed
 * and after one edit, and hot-reload latency through the watcher. "cold load" reads every SKILL.md
 * (no persisted index); "cold, with index" is a new process's start over the persisted index
 * (src/registry/library-index.ts) of an unchanged library, files last modified a day ago.
 * Run: `npx tsx bench/registry.ts [sizes…]` (default 1000 3000 10000).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryUsageStore, SkillRegistry } from '../src/registry/index.js';
import { generatedName, generateLibrary } from './generate-library.js';

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const now = new Date('2026-11-30T00:00:00Z');

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/**
 * What an agent calling the CLI feels: `reminder` and `load NAME` as processes (bin/skillgarden.js, built), over the
 * persisted index the in-process runs left; median of 3 after one run, wall and CPU from /usr/bin/time.
 */
function cliRuns(root: string, name: string): Record<string, string> {
  const bin = join(import.meta.dirname, '..', 'bin', 'skillgarden.js');
  if (!existsSync(join(import.meta.dirname, '..', 'lib'))) return { 'CLI runs': 'no lib/ (run `npm run build`)' };
  const out: Record<string, string> = {};
  for (const [label, args] of [
    ['`reminder` process, wall / CPU', ['reminder']],
    ['`load` process, wall / CPU', ['load', name]],
  ] as const) {
    const runs: { wall: number; cpu: number }[] = [];
    for (let i = 0; i < 4; i++) {
      const start = performance.now();
      const run = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, bin, ...args, '--repo', root], {
        encoding: 'utf8',
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      if (run.status !== 0) throw new Error(`${args.join(' ')} failed (${run.status}): ${run.stderr.slice(-400)}`);
      const [user, sys] = (run.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
      const wall = performance.now() - start;
      if (i > 0) runs.push({ wall, cpu: ((user ?? NaN) + (sys ?? NaN)) * 1000 });
    }
    out[label] = `${median(runs.map((r) => r.wall)).toFixed(0)} / ${median(runs.map((r) => r.cpu)).toFixed(0)} ms`;
  }
  return out;
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

function median(samples: number[]): number {
  return percentile(samples, 50);
}

function usageFor(count: number) {
  const initial: Record<string, { use_count: number; last_used_at: string }> = {};
  for (let i = 0; i < count; i += 10)
    initial[generatedName(i)] = { use_count: 1 + (i % 17), last_used_at: new Date(now.getTime() - (i % 200) * 3_600_000).toISOString() };
  return createMemoryUsageStore(initial);
}

function skillPath(root: string, i: number): string {
  const name = generatedName(i);
  return i % 3 === 0 ? join(root, 'skills', `category-${i % 7}`, name, 'SKILL.md') : join(root, 'skills', name, 'SKILL.md');
}

async function measure(count: number): Promise<Record<string, string>> {
  const root = mkdtempSync(join(tmpdir(), 'skillgarden-bench-registry-'));
  try {
    generateLibrary(root, count);
    const usage = usageFor(count);
    const cold: number[] = [];
    const coldCpu: number[] = [];
    let registry: SkillRegistry | undefined;
    for (let run = 0; run < 3; run++) {
      const start = performance.now();
      const cpu = process.cpuUsage();
      registry = await SkillRegistry.open({ repoDir: root, usage, now: () => now, indexFile: false });
      coldCpu.push(cpuMs(cpu));
      cold.push(performance.now() - start);
    }
    // Files older than the index (not "racily clean"), as a library is between edits.
    const dayAgo = new Date(Date.now() - 86_400_000);
    for (let i = 0; i < count; i++) utimesSync(skillPath(root, i), dayAgo, dayAgo);
    const indexFile = join(root, '.git', 'skillgarden', 'registry-index.json');
    let start = performance.now();
    await SkillRegistry.open({ repoDir: root, usage, now: () => now, indexFile });
    const firstWithIndex = performance.now() - start;
    const indexed: number[] = [];
    const indexedCpu: number[] = [];
    const rssBefore = process.memoryUsage().rss;
    for (let run = 0; run < 5; run++) {
      start = performance.now();
      const cpu = process.cpuUsage();
      await SkillRegistry.open({ repoDir: root, usage, now: () => now, indexFile });
      indexedCpu.push(cpuMs(cpu));
      indexed.push(performance.now() - start);
    }
    const indexBytes = statSync(indexFile).size;
    const reg = registry as SkillRegistry;

    reg.activateForPaths(['nothing/matches']);
    await reg.refresh();
    start = performance.now();
    reg.buildReminder();
    const rebuild = performance.now() - start;
    const cached: number[] = [];
    for (let i = 0; i < 1_000; i++) {
      start = performance.now();
      reg.buildReminder();
      cached.push(performance.now() - start);
    }

    const loads: number[] = [];
    for (let i = 0; i < 10_000; i++) {
      const name = generatedName((i * 7919) % count);
      start = performance.now();
      await reg.load(name, { sessionId: 'bench' });
      loads.push(performance.now() - start);
    }

    const idle: number[] = [];
    for (let i = 0; i < 5; i++) {
      start = performance.now();
      await reg.refresh();
      idle.push(performance.now() - start);
    }

    // As the watcher does it (the changed SKILL.md named), and as a bare refresh() does (every SKILL.md stat'ed).
    const edits = { hinted: [] as number[], full: [] as number[] };
    for (let i = 0; i < 10; i++) {
      const target = skillPath(root, (i * 31) % count);
      writeFileSync(target, `---\nname: ${generatedName((i * 31) % count)}\ndescription: Edited ${i}.\n---\nBody ${i}\n`);
      const later = new Date(Date.now() + (i + 1) * 1000);
      utimesSync(target, later, later);
      const hinted = i % 2 === 0;
      start = performance.now();
      const result = await reg.refresh(hinted ? { changedFiles: [target] } : {});
      (hinted ? edits.hinted : edits.full).push(performance.now() - start);
      if (result.changed.length !== 1) throw new Error(`expected one change, got ${JSON.stringify(result)}`);
    }

    const cli = cliRuns(root, generatedName(Math.floor(count / 2)));

    const watcher = reg.watch();
    const target = skillPath(root, 1);
    const marker = `Hot reload marker ${count}`;
    writeFileSync(target, `---\nname: ${generatedName(1)}\ndescription: ${marker}.\n---\nBody\n`);
    start = performance.now();
    while (!reg.buildReminder({ budgetChars: 10_000_000 }).includes(marker) && performance.now() - start < 10_000)
      await new Promise((r) => setTimeout(r, 5));
    const hot = performance.now() - start;
    watcher.close();

    return {
      skills: String(count),
      'cold load, wall / CPU (median of 3)': `${median(cold).toFixed(0)} / ${median(coldCpu).toFixed(0)} ms`,
      'cold skills/s': `${Math.round(count / (median(cold) / 1000))}`,
      'cold, with index, wall / CPU (median of 5; min)': `${median(indexed).toFixed(0)} / ${median(indexedCpu).toFixed(0)} ms; ${Math.min(...indexed).toFixed(0)} / ${Math.min(...indexedCpu).toFixed(0)} ms`,
      'writing the index': `${(firstWithIndex - median(indexed)).toFixed(0)} ms (${(indexBytes / 1024 / 1024).toFixed(1)} MiB)`,
      'peak RSS': `${((process.resourceUsage().maxRSS * 1024) / 1024 / 1024).toFixed(0)} MiB (rss ${(rssBefore / 1024 / 1024).toFixed(0)} before)`,
      'reminder rebuilt': `${rebuild.toFixed(2)} ms`,
      'reminder unchanged p99': `${percentile(cached, 99).toFixed(4)} ms`,
      'load() p50 / p99': `${percentile(loads, 50).toFixed(4)} / ${percentile(loads, 99).toFixed(4)} ms`,
      'refresh, nothing changed': `${median(idle).toFixed(1)} ms`,
      'refresh after one edit (watcher / full scan)': `${median(edits.hinted).toFixed(2)} / ${median(edits.full).toFixed(1)} ms`,
      'hot reload (edit → reminder)': `${hot.toFixed(0)} ms`,
      ...cli,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const rows: Record<string, string>[] = [];
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const size of sizes.length > 0 ? sizes : [1_000, 3_000, 10_000]) rows.push(await measure(size));
const keys = Object.keys(rows[0] ?? {});
console.log(`| ${keys.join(' | ')} |`);
console.log(`|${keys.map(() => '---:').join('|')}|`);
for (const row of rows) console.log(`| ${keys.map((k) => row[k]).join(' | ')} |`);
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
