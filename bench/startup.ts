/**
 * Start-up: how long a process takes for `--version`, `--help` and `validate` of
 * one skill, beside `node -e 0` (the floor), run interleaved so the machine's load
 * falls on every column alike. Median of N runs (default 11; `STARTUP_RUNS`).
 * Runs the built CLI (`bin/skillgarden.js` over lib/): `npm run build` first.
 * Beside wall time, each child's CPU time (user + system, from this process's
 * `cutime`/`cstime` in /proc/self/stat, Linux only, 10 ms ticks): on a shared
 * machine the wall figures carry other processes' load, the CPU ones much less.
 * Run: npx tsx bench/startup.ts
 * Targets: --version and --help within 2× of node -e 0; validate of one skill within 3×.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** CPU time of the waited-for children so far, in ms (fields 16 and 17 of /proc/self/stat); undefined off Linux. */
function childrenCpuMs(): number | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state is field 3, so cutime (16) and cstime (17) are at 13 and 14 here; 100 ticks a second.
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

const runs = Number(process.env.STARTUP_RUNS ?? 11);
const times = cases.map(() => [] as number[]);
const cpu = cases.map(() => 0);
for (let run = 0; run < runs; run += 1) {
  cases.forEach(({ args }, i) => {
    const start = performance.now();
    const cpuBefore = childrenCpuMs();
    const child = spawnSync(process.execPath, args, { cwd: repo, encoding: 'utf8' });
    (times[i] as number[]).push(performance.now() - start);
    cpu[i] = (cpu[i] as number) + ((childrenCpuMs() ?? 0) - (cpuBefore ?? 0));
    if (child.status !== 0) throw new Error(`${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  });
}
rmSync(repo, { recursive: true, force: true });

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const floor = median(times[0] as number[]);
const cpuFloor = (cpu[0] as number) / runs;
const hasCpu = childrenCpuMs() !== undefined;
console.log(
  `node ${process.version}, ${runs} interleaved runs each, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log('| command | median | min–max | × node -e 0 | CPU, mean | CPU × node -e 0 |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
cases.forEach(({ label }, i) => {
  const values = times[i] as number[];
  const m = median(values);
  const meanCpu = (cpu[i] as number) / runs;
  const cpuColumns = hasCpu ? `${meanCpu.toFixed(0)} ms | ${(meanCpu / cpuFloor).toFixed(2)}` : 'n/a | n/a';
  console.log(
    `| ${label} | ${m.toFixed(0)} ms | ${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)} ms | ${(m / floor).toFixed(2)} | ${cpuColumns} |`,
  );
});
