/**
 * Validation throughput: the real corpus, then generated libraries of
 * growing size, to show how cost grows; then the real command line, cold and
 * warm (the content caches). Run: `npm run build && npx tsx bench/validate.ts`
 * (`BENCH_SIZES=1000,5000` for fewer sizes, `BENCH_CLI_ONLY=1` for the command line alone).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runValidate } from '../src/services/validate.js';
import { minSkillsPerThread } from '../src/services/validate-pass.js';
import { racyListingMs } from '../src/store/dir-cache.js';
import { generateLibrary } from './generate-library.js';

/** Every folder under `root` but `.git`, the root included. */
function folders(root: string): string[] {
  const out = [root];
  for (const e of readdirSync(root, { withFileTypes: true }))
    if (e.isDirectory() && e.name !== '.git') out.push(...folders(join(root, e.name)));
  return out;
}

const corpus = join(import.meta.dirname, '..', '..', 'shared', 'corpus', 'skills');

function time<T>(fn: () => T): { result: T; ms: number } {
  const start = performance.now();
  const result = fn();
  return { result, ms: performance.now() - start };
}

function best(runs: number, fn: () => { skills: number }): { skills: number; ms: number } {
  let bestMs = Infinity;
  let skills = 0;
  for (let i = 0; i < runs; i++) {
    const { result, ms } = time(fn);
    skills = result.skills;
    bestMs = Math.min(bestMs, ms);
  }
  return { skills, ms: bestMs };
}

const rows: string[] = ['| library | skills | time (best of 3) | skills/s | µs per skill |', '|---|---:|---:|---:|---:|'];
const row = (label: string, skills: number, ms: number) =>
  rows.push(
    `| ${label} | ${skills.toLocaleString('en-US')} | ${ms.toFixed(0)} ms | ${Math.round((skills / ms) * 1000).toLocaleString('en-US')} | ${((ms * 1000) / skills).toFixed(0)} |`,
  );

const inProcess = process.env.BENCH_CLI_ONLY !== '1';
if (inProcess && existsSync(corpus)) {
  const r = best(3, () => runValidate({ cwd: corpus, paths: ['.'], profile: 'spec' }));
  row('corpus (spec profile)', r.skills, r.ms);
}
for (const size of inProcess ? [1_000, 5_000, 10_000] : []) {
  const root = mkdtempSync(join(tmpdir(), 'sg-bench-validate-'));
  try {
    generateLibrary(root, size);
    const r = best(3, () => runValidate({ cwd: root }));
    row(`generated ${size.toLocaleString('en-US')}`, r.skills, r.ms);
  } finally {
    rmSync(root, { recursive: true, force: true, maxRetries: 5 });
  }
}
if (inProcess) console.log(rows.join('\n'));

// The real command line, as a user or a hook runs it: a process per run over a committed library (git's index
// then holds the blob ids). Cold: no cache in .git/skillgarden/; warm: the same library again, unchanged.
// Wall time and the child's CPU time (user + system, from /proc), which the machine's load moves less.
const bin = join(import.meta.dirname, '..', 'bin', 'skillgarden.js');
const childCpuMs = (): number => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
};
const cliRun = (cwd: string, args: string[], env: Record<string, string> = {}): { ms: number; cpu: number } => {
  const cpu = childCpuMs();
  const start = performance.now();
  const child = spawnSync(process.execPath, [bin, 'validate', '--json', ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    env: { ...process.env, ...env },
  });
  const ms = performance.now() - start;
  if (child.status !== 0 && child.status !== 1) throw new Error(`validate exited ${child.status}: ${child.stderr}`);
  return { ms, cpu: childCpuMs() - cpu };
};
const fmt = (r: { ms: number; cpu: number }) => `${(r.ms / 1000).toFixed(2)} s (cpu ${(r.cpu / 1000).toFixed(2)} s)`;
const cliRows: string[] = [
  '',
  `CLI, one process per run; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
  `(the pass uses up to ${availableParallelism()} threads from ${minSkillsPerThread} skills per thread; "one thread": SKILLGARDEN_THREADS=1)`,
  '| library | validate --no-scan | validate, cold (no cache), one thread | validate, cold (no cache) | validate, repeated (the next run) | repeat / cold (wall, cpu) | validate ., cold | validate ., repeated |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
];
console.log(cliRows.join('\n'));
const sizes = (process.env.BENCH_SIZES ?? '1000,5000,10000').split(',').map(Number);
for (const size of sizes) {
  const root = mkdtempSync(join(tmpdir(), 'sg-bench-validate-cli-'));
  try {
    generateLibrary(root, size);
    const git = (...args: string[]) =>
      spawnSync('git', args, { cwd: root, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: root }, stdio: 'ignore' });
    git('init', '-q');
    git('add', '-A');
    // No automatic gc: one left running in the background would still be writing .git when the folder is removed.
    git('-c', 'gc.auto=0', '-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'library');
    // A library committed a while ago, as a user's is: its folders are past the window in which validate would not
    // keep their listings (a folder changed in the last two seconds may change again unseen; dir-cache.ts).
    const age = new Date(Date.now() - 2 * racyListingMs);
    for (const folder of folders(root)) utimesSync(folder, age, age);
    const noScan = cliRun(root, ['--no-scan', '--no-cache']);
    rmSync(join(root, '.git', 'skillgarden'), { recursive: true, force: true });
    const coldOne = cliRun(root, [], { SKILLGARDEN_THREADS: '1' });
    rmSync(join(root, '.git', 'skillgarden'), { recursive: true, force: true });
    const cold = cliRun(root, []);
    // The first repeat, right after the cold run (which keeps its report: validate-memo.ts).
    const warm = cliRun(root, []);
    // The repository named as a path (`validate .`, the figure): a deep search of the folder, deferred to the threads.
    rmSync(join(root, '.git', 'skillgarden'), { recursive: true, force: true });
    const coldDot = cliRun(root, ['.']);
    const warmDot = cliRun(root, ['.']);
    const share = (a: number, b: number) => `${((a / b) * 100).toFixed(0)} %`;
    console.log(
      `| generated ${size.toLocaleString('en-US')} | ${fmt(noScan)} | ${fmt(coldOne)} | ${fmt(cold)} | ${fmt(warm)} | ${share(warm.ms, cold.ms)}, ${share(warm.cpu, cold.cpu)} | ${fmt(coldDot)} | ${fmt(warmDot)} (${share(warmDot.ms, coldDot.ms)}) |`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true, maxRetries: 5 });
  }
}
