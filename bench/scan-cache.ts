/**
 * Whether the `scan` command's cache (`.git/skillgarden/scan-cache.json`) pays for a user: the CLI on a fresh
 * committed copy of a library, first run then repeat, with the cache and with `--no-cache`, interleaved rounds,
 * medians of the children's CPU (user + system, /proc/self/stat) and wall.
 * Run: npx tsx bench/scan-cache.ts [rounds, default 3]   (BENCH_LIBRARY=/path: another library than the corpus)
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const library = process.env.BENCH_LIBRARY ?? fileURLToPath(new URL('../../shared/corpus/skills', import.meta.url));
const bin = fileURLToPath(new URL('../bin/skillgarden.js', import.meta.url));
const rounds = Number(process.argv[2] ?? 3);

function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

function run(cwd: string, args: string[]): { wall: number; cpu: number } {
  const cpu0 = childrenCpuMs();
  const started = performance.now();
  const child = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (child.status !== 0 && child.status !== 1) throw new Error(`skillgarden ${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  return { wall: performance.now() - started, cpu: childrenCpuMs() - cpu0 };
}

function git(cwd: string, ...args: string[]): void {
  const env = { ...process.env, HOME: cwd, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  const child = spawnSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], { cwd, env, encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${child.stderr}`);
}

function fresh(): string {
  const repo = mkdtempSync(join(tmpdir(), 'skillgarden-scan-cache-'));
  cpSync(library, join(repo, 'skills'), { recursive: true });
  git(repo, 'init', '-q');
  git(repo, 'add', '-A');
  git(repo, '-c', 'gc.auto=0', 'commit', '-qm', 'library');
  return repo;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const results: Record<string, { wall: number[]; cpu: number[] }> = {};
const add = (key: string, r: { wall: number; cpu: number }) => {
  results[key] ??= { wall: [], cpu: [] };
  results[key].wall.push(r.wall);
  results[key].cpu.push(r.cpu);
};

for (let i = 0; i < rounds; i++) {
  for (const [label, extra] of [
    ['with the cache', []],
    ['--no-cache', ['--no-cache']],
  ] as const) {
    const repo = fresh();
    try {
      add(`${label}, first run`, run(repo, ['scan', '--json', ...extra, '.']));
      add(`${label}, repeat run`, run(repo, ['scan', '--json', ...extra, '.']));
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  }
}

console.log(`# scan cache: ${library}, medians of ${rounds} interleaved rounds\n\n| run | wall | CPU |\n|---|---:|---:|`);
for (const [key, r] of Object.entries(results))
  console.log(`| ${key} | ${median(r.wall).toFixed(0)} ms | ${median(r.cpu).toFixed(0)} ms |`);
console.log(
  `\nload average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
