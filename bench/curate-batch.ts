/**
 * A curator's first real pass (every transition written) on 1,000 / 5,000 / 10,000 agent-created
 * skills, on each ledger backend: the run's commits are written as one batch (one pack of objects,
 * one branch move, one working-tree and index update). Each backend runs on its own copy of the
 * same library, with a warm history cache (the read side is `bench/curate.ts`).
 * Run: `npx tsx bench/curate-batch.ts [sizes…]` (`BENCH_STATE=v1`: from a version 1 state file, migrated by the run).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LedgerBackend } from '../src/ledger/ledger.js';
import { readLibrary } from '../src/services/curator/read-library.js';
import { runCurator } from '../src/services/curator/run-curator.js';
import { generateLibrary } from './curate-library.js';

const now = new Date('2026-11-30T00:00:00Z');
const sizes = process.argv.slice(2).map(Number).filter(Boolean);
const backends = (process.env.BENCH_BACKENDS ?? 'system-git,isomorphic-git').split(',') as LedgerBackend[];
process.env.GIT_AUTHOR_NAME ??= 'Bench';
process.env.GIT_AUTHOR_EMAIL ??= 'bench@example.com';
process.env.GIT_COMMITTER_NAME ??= 'Bench';
process.env.GIT_COMMITTER_EMAIL ??= 'bench@example.com';

/** CPU seconds of this process's children that have exited (git fast-import ends with the run): Linux only, else 0. */
function childrenCpu(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100; // cutime + cstime, in clock ticks (100 per second)
  } catch {
    return 0;
  }
}

/**
 * `BENCH_STATE=v1`: the library's state as a version 1 curator left it, every skill with a seed record in the one
 * `state.json`, committed: the run's first commit moves them to a file each (the migration's cost, measured).
 */
function writeVersion1State(dir: string, size: number): void {
  const skills = Object.fromEntries(Array.from({ length: size }, (_, i) => [`skill-${i}`, { seeded_at: '2026-01-01T00:00:00.000Z' }]));
  writeFileSync(join(dir, '.skillgarden', 'state.json'), `${JSON.stringify({ version: 1, skills, rejected_proposals: [] }, null, 2)}\n`);
  execFileSync('git', ['add', '.skillgarden/state.json'], { cwd: dir });
  execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'state v1'], { cwd: dir });
}

const rows = [
  '| skills | backend | transitions | commits | whole run | CPU of this process | CPU of git children | writing (run − read − plan) | per transition | git fsck |',
  '|---:|---|---:|---:|---:|---:|---:|---:|---:|---|',
];
for (const size of sizes.length ? sizes : [1_000, 5_000, 10_000]) {
  const base = mkdtempSync(join(tmpdir(), 'sg-bench-batch-'));
  try {
    const source = join(base, 'source');
    generateLibrary(source, size, now);
    if (process.env.BENCH_STATE === 'v1') writeVersion1State(source, size);
    await readLibrary(source, { now });
    for (const backend of backends) {
      const dir = join(base, backend);
      cpSync(source, dir, { recursive: true });
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const childrenBefore = childrenCpu();
      const { report } = await runCurator({ repoDir: dir, now, backend });
      const ms = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      const cpuS = (cpu.user + cpu.system) / 1e6;
      const childrenS = childrenCpu() - childrenBefore;
      const writing = ms - (report.timings_ms.read ?? 0) - (report.timings_ms.plan ?? 0);
      const transitions = report.transitions.length;
      let fsck = 'clean';
      try {
        execFileSync('git', ['fsck', '--strict', '--no-progress'], { cwd: dir, stdio: 'pipe' });
      } catch (error) {
        fsck = `FAILED: ${String((error as { stderr?: Buffer }).stderr ?? error).slice(0, 80)}`;
      }
      rows.push(
        `| ${size.toLocaleString('en-US')} | ${backend} | ${transitions.toLocaleString('en-US')} | ${report.commits.length.toLocaleString('en-US')} | ${(ms / 1000).toFixed(2)} s | ${cpuS.toFixed(2)} s | ${childrenS.toFixed(2)} s | ${(writing / 1000).toFixed(2)} s | ${(writing / Math.max(1, transitions)).toFixed(2)} ms | ${fsck} |`,
      );
      console.error(rows.at(-1), `(load ${loadavg()[0]!.toFixed(1)})`);
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
console.log(rows.join('\n'));
