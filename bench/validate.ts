/**
 * Validation throughput: the real corpus, then generated libraries of
 * growing size, to show how cost grows; then the real command line, first
 * run and run after one edit. Run: `npm run build && npx tsx bench/validate.ts`
 * (`BENCH_SIZES=1000,5000` for fewer sizes, `BENCH_CLI_ONLY=1` for the command line alone).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runValidate } from '../src/services/validate.js';
import { generateLibrary } from './generate-library.js';

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
// then holds the blob ids): the first run on a fresh copy, with and without the scan, and the run after one SKILL.md
// is edited (the pre-commit case).
// Medians of 3; wall time and the child's CPU time (user + system, from /proc), which the machine's load moves less.
const bin = join(import.meta.dirname, '..', 'bin', 'skillgarden.js');
const childCpuMs = (): number => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
};
type Timed = { ms: number; cpu: number };
const cliRun = (cwd: string, args: string[]): Timed => {
  const cpu = childCpuMs();
  const start = performance.now();
  // `.`: the repository searched deep, so the corpus's nested folders count (a library root would find one skill).
  const child = spawnSync(process.execPath, [bin, 'validate', '--json', ...args, '.'], { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - start;
  if (child.status !== 0 && child.status !== 1) throw new Error(`validate exited ${child.status}: ${child.stderr}`);
  return { ms, cpu: childCpuMs() - cpu };
};
const median = (runs: Timed[]): Timed => {
  const by = (k: keyof Timed) => runs.map((r) => r[k]).sort((x, y) => x - y)[Math.floor(runs.length / 2)]!;
  return { ms: by('ms'), cpu: by('cpu') };
};
const fmt = (r: Timed) => `${(r.ms / 1000).toFixed(2)} s (cpu ${(r.cpu / 1000).toFixed(2)} s)`;

/** A committed library at `root`, made by `fill`. */
function committed(fill: (root: string) => void): string {
  const root = mkdtempSync(join(tmpdir(), 'sg-bench-validate-cli-'));
  fill(root);
  const git = (...args: string[]) =>
    spawnSync('git', args, { cwd: root, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: root }, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  // No automatic gc: one left running in the background would still be writing .git when the folder is removed.
  git('-c', 'gc.auto=0', '-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'library');
  return root;
}

/** One SKILL.md of the library, appended to. */
function editOne(root: string, i: number): void {
  const git = spawnSync('git', ['ls-files', '*SKILL.md'], { cwd: root, encoding: 'utf8' });
  const file = join(root, git.stdout.split('\n')[0]!);
  writeFileSync(file, `${readFileSync(file, 'utf8')}\n<!-- edited ${i} -->\n`);
}

console.log(
  [
    '',
    `CLI, one process per run, medians of 3; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
    '| library | first run | after one edit | first run --no-scan |',
    '|---|---:|---:|---:|',
  ].join('\n'),
);
const libraries: [string, (root: string) => void][] = [];
if (existsSync(corpus)) libraries.push(['corpus copy', (root) => cpSync(corpus, join(root, 'skills'), { recursive: true })]);
for (const size of (process.env.BENCH_SIZES ?? '2000,10000').split(',').map(Number))
  libraries.push([`generated ${size.toLocaleString('en-US')}`, (root) => generateLibrary(root, size)]);
for (const [label, fill] of libraries) {
  const runs = { first: [] as Timed[], edit: [] as Timed[], noScan: [] as Timed[] };
  for (let i = 0; i < 3; i++) {
    // A fresh copy for each first run (nothing in the page cache's favour but what the copy left).
    for (const [into, args] of [
      [runs.noScan, ['--no-scan']],
      [runs.first, []],
    ] as const) {
      const root = committed(fill);
      try {
        into.push(cliRun(root, [...args]));
        if (into === runs.first) {
          editOne(root, i);
          runs.edit.push(cliRun(root, []));
        }
      } finally {
        rmSync(root, { recursive: true, force: true, maxRetries: 5 });
      }
    }
  }
  console.log(`| ${label} | ${fmt(median(runs.first))} | ${fmt(median(runs.edit))} | ${fmt(median(runs.noScan))} |`);
}
