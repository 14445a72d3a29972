/**
 * Start-up: how long a process takes for `--version`, `--help` and `validate` of
 * one skill, beside `node -e 0` (the floor), run interleaved so the machine's load
 * falls on every column alike. Median of N runs (default 11; `STARTUP_RUNS`).
 * Runs the built CLI (`bin/skillgarden.js` over lib/): `npm run build` first.
 * Run: npx tsx bench/startup.ts
 * Targets: --version and --help within 2× of node -e 0; validate of one skill within 3×.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const bin = join(root, 'bin', 'skillgarden.js');
if (!existsSync(join(root, 'lib', 'cli', 'main.js'))) {
  console.error('lib/ is missing: run `npm run build` first');
  process.exit(2);
}

// A repository with a config file (validate reads it) and one skill, as a pre-commit hook sees it.
const repo = mkdtempSync(join(tmpdir(), 'sg-startup-'));
mkdirSync(join(repo, '.skillgarden'));
writeFileSync(join(repo, '.skillgarden', 'config.yaml'), 'profile: spec\n');
cpSync(join(root, 'skills', 'skill-authoring'), join(repo, 'skills', 'skill-authoring'), { recursive: true });

const cases: { label: string; args: string[] }[] = [
  { label: 'node -e 0', args: ['-e', '0'] },
  { label: 'skillgarden --version', args: [bin, '--version'] },
  { label: 'skillgarden --help', args: [bin, '--help'] },
  { label: 'skillgarden validate (1 skill)', args: [bin, 'validate', 'skills/skill-authoring'] },
  { label: 'skillgarden validate --no-scan (1 skill)', args: [bin, 'validate', '--no-scan', 'skills/skill-authoring'] },
];

const runs = Number(process.env.STARTUP_RUNS ?? 11);
const times = cases.map(() => [] as number[]);
for (let run = 0; run < runs; run += 1) {
  cases.forEach(({ args }, i) => {
    const start = performance.now();
    const child = spawnSync(process.execPath, args, { cwd: repo, encoding: 'utf8' });
    (times[i] as number[]).push(performance.now() - start);
    if (child.status !== 0) throw new Error(`${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  });
}
rmSync(repo, { recursive: true, force: true });

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const floor = median(times[0] as number[]);
console.log(
  `node ${process.version}, ${runs} interleaved runs each, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log('| command | median | min–max | × node -e 0 |');
console.log('| --- | ---: | ---: | ---: |');
cases.forEach(({ label }, i) => {
  const values = times[i] as number[];
  const m = median(values);
  console.log(
    `| ${label} | ${m.toFixed(0)} ms | ${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)} ms | ${(m / floor).toFixed(2)} |`,
  );
});
