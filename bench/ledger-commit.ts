/**
 * Ledger commit latency per backend and repository size.
 * Run: npx tsx bench/ledger-commit.ts [sizes=100,1000,10000] [commits=60]
 * `BENCH_INDEX_VERSION=4`: the seed's index in version 4, which the native index codec leaves to the system git
 * (`git update-index`, `git ls-files`): what a commit would cost with git keeping the index.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LedgerBackend } from '../src/ledger/ledger.js';
import { openLedger } from '../src/ledger/open-ledger.js';

export const backends: LedgerBackend[] = (process.env.BENCH_BACKENDS ?? 'system-git,isomorphic-git').split(',') as LedgerBackend[];
export const author = { name: 'Bench', email: 'bench@example.com', timestamp: 1_780_000_000, timezoneOffset: 0 };

/** A repository with `skills` skill folders (SKILL.md + a reference each), committed by plain git. */
export function generateRepo(skills: number): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `skillgarden-bench-${skills}-`));
  const run = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  run('init', '-q', '-b', 'main');
  run('config', 'user.name', 'Bench');
  run('config', 'user.email', 'bench@example.com');
  run('config', 'gc.auto', '0');
  for (let i = 0; i < skills; i += 1) {
    mkdirSync(join(dir, 'skills', `skill-${i}`, 'references'), { recursive: true });
    writeFileSync(
      join(dir, 'skills', `skill-${i}`, 'SKILL.md'),
      `---\nname: skill-${i}\ndescription: Skill number ${i}.\n---\n\n# Skill ${i}\n`,
    );
    writeFileSync(join(dir, 'skills', `skill-${i}`, 'references', 'notes.md'), `Notes for ${i}\n`);
  }
  run('add', '-A');
  run('commit', '-q', '-m', 'seed');
  if (process.env.BENCH_INDEX_VERSION) run('update-index', '--index-version', process.env.BENCH_INDEX_VERSION);
  // Let the kernel write the seed's thousands of new files back before
  // measuring: otherwise their writeback competes with the commits measured.
  execFileSync('sync');
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Operations run before measuring: the first ones pay for JIT compilation and cold caches. */
export const warmup = 10;

export const fmt = (ms: number) => ms.toFixed(1).padStart(7);

interface Sample {
  total: number;
  build: number;
  locked: number;
  finish: number;
}

/** CPU ms this process spent (user + system): unlike wall time, hardly moved by other load on the machine. */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** User-space CPU ms alone: our code's own work, apart from the kernel's file system time. */
export function userCpuMs(): number {
  return process.cpuUsage().user / 1000;
}

async function benchCommits(
  dir: string,
  backend: LedgerBackend,
  commits: number,
): Promise<{ samples: Sample[]; cpu: number; user: number }> {
  let marks: Record<string, number> = {};
  const ledger = await openLedger(dir, { backend, onStage: (stage) => void (marks[stage] = performance.now()) });
  const skills = (await ledger.listFiles('skills')).filter((f) => f.path.endsWith('SKILL.md')).length;
  const samples: Sample[] = [];
  let cpuStart = 0;
  let userStart = 0;
  for (let i = 0; i < commits + warmup; i += 1) {
    if (i === warmup) [cpuStart, userStart] = [cpuMs(), userCpuMs()];
    const path = `skills/skill-${(i * 7919) % skills}/SKILL.md`;
    marks = {};
    const start = performance.now();
    await ledger.commit({
      message: `skill(patch): ${backend} ${i}`,
      changes: [{ path, content: `---\nname: x\ndescription: ${backend} ${i}\n---\n` }],
      // No author: who git says (git var on system-git, the config layers embedded), asked once per ledger, as a real commit does.
    });
    const end = performance.now();
    const objects = marks['objects-written'] ?? start;
    const ref = marks['index-written'] ?? end;
    if (i >= warmup) samples.push({ total: end - start, build: objects - start, locked: ref - objects, finish: end - ref });
  }
  const cpu = (cpuMs() - cpuStart) / commits;
  const user = (userCpuMs() - userStart) / commits;
  await ledger.close();
  return { samples, cpu, user };
}

/** What one small write + fsync + rename costs here: a commit does two (the ref and the index). */
async function measureFsync(dir: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const start = performance.now();
    const handle = await open(join(dir, `fsync-probe-${i}`), 'wx');
    await handle.writeFile('x\n');
    await handle.sync();
    await handle.close();
    await rename(join(dir, `fsync-probe-${i}`), join(dir, 'fsync-probe'));
    times.push(performance.now() - start);
  }
  return percentile(times, 50);
}

async function main(): Promise<void> {
  const sizes = (process.argv[2] ?? '100,1000,10000').split(',').map(Number);
  const commits = Number(process.argv[3] ?? 60);
  console.log(
    `ledger commit: ${commits} single-file patches per backend; ms; build = read head + objects, lock = locks + dirty check + working tree + index, finish = ref + reflog; cpu/op = this process's CPU per commit (user = of which outside the kernel); load average ${loadavg()[0]?.toFixed(1)}`,
  );
  console.log(
    `${'skills'.padStart(7)} ${'backend'.padEnd(15)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'build50'.padStart(7)} ${'lock50'.padStart(7)} ${'finish50'.padStart(8)} ${'cpu/op'.padStart(7)} ${'user'.padStart(7)} ${'commits/s'.padStart(9)}`,
  );
  for (const size of sizes) {
    const repo = generateRepo(size);
    try {
      console.log(
        `${String(size).padStart(7)} (write + fsync + rename of a small file: p50 ${(await measureFsync(join(repo.dir, '.git'))).toFixed(1)} ms)`,
      );
      for (const backend of backends) {
        const { samples, cpu, user } = await benchCommits(repo.dir, backend, commits);
        const totals = samples.map((s) => s.total);
        const sum = totals.reduce((a, b) => a + b, 0);
        console.log(
          `${String(size).padStart(7)} ${backend.padEnd(15)} ${fmt(percentile(totals, 50))} ${fmt(percentile(totals, 95))} ${fmt(
            percentile(
              samples.map((s) => s.build),
              50,
            ),
          )} ${fmt(
            percentile(
              samples.map((s) => s.locked),
              50,
            ),
          )} ${fmt(
            percentile(
              samples.map((s) => s.finish),
              50,
            ),
          ).padStart(8)} ${fmt(cpu)} ${fmt(user)} ${((1000 * samples.length) / sum).toFixed(0).padStart(9)}`,
        );
      }
    } finally {
      repo.cleanup();
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
