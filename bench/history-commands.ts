/**
 * `log --skill`, `log`, `show` and `doctor` on a generated merge-heavy history (bench/history-repo.ts),
 * cold (no history cache) and warm, beside `git log -- <path>` in the same run: wall time (median)
 * and peak RSS (max) of whole commands, from `/usr/bin/time -v`. The built CLI (`npm run build`);
 * `--before DIR` also runs another checkout's build (e.g. /work/main) for a side-by-side figure.
 * The embedded backend runs the same CLI with a PATH that holds node and no git.
 * Run: `npx tsx bench/history-commands.ts [commits] [--runs N] [--before DIR] [--repo GENERATED]`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateHistoryRepo } from './history-repo.js';

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args.splice(at, 2)[1];
};
const runs = Number(option('--runs') ?? 3);
const before = option('--before');
// An existing generated repository, kept afterwards: generating 12,000 commits takes minutes on a loaded machine.
const reuse = option('--repo');
const commits = Number(args[0] ?? 12_000);
const here = resolve(import.meta.dirname, '..');
const skill = 'skill-7';

// A PATH with node alone: the CLI finds no git and reads history with isomorphic-git.
const noGitBin = mkdtempSync(join(tmpdir(), 'sg-nogit-'));
symlinkSync(process.execPath, join(noGitBin, 'node'));

interface Sample {
  wallMs: number;
  /** User + system: what the command costs, whatever else the machine is doing. */
  cpuMs: number;
  rssMb: number;
}

function measure(command: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Sample {
  const result = spawnSync('/usr/bin/time', ['-v', ...command], { cwd, env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const wall = /Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)/.exec(result.stderr);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr);
  if (!wall || !rss || (result.status !== 0 && result.status !== 1)) throw new Error(`${command.join(' ')} failed:\n${result.stderr}`);
  const wallMs = (Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3])) * 1000;
  const seconds = (name: string) => Number(new RegExp(`${name} time \\(seconds\\): ([\\d.]+)`).exec(result.stderr)?.[1] ?? NaN);
  return { wallMs, cpuMs: (seconds('User') + seconds('System')) * 1000, rssMb: Number(rss[1]) / 1024 };
}

function series(label: string, take: () => Sample, prepare: () => void = () => {}): string {
  const samples: Sample[] = [];
  for (let r = 0; r < runs; r++) {
    prepare();
    samples.push(take());
  }
  const median = (key: 'wallMs' | 'cpuMs') => samples.map((s) => s[key]).sort((a, b) => a - b)[Math.floor(samples.length / 2)] as number;
  const time = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
  const rss = Math.max(...samples.map((s) => s.rssMb));
  const row = `| ${label} | ${time(median('wallMs'))} | ${time(median('cpuMs'))} | ${Math.round(rss)} MB |`;
  console.error(row);
  return row;
}

const dir = reuse ?? generateHistoryRepo(commits);
const cache = join(dir, '.git', 'skillgarden', 'history-index.json');
const dropCache = () => rmSync(cache, { force: true });
const count = (...revs: string[]) => execFileSync('git', ['rev-list', '--count', ...revs], { cwd: dir, encoding: 'utf8' }).trim();
const rows = [
  `${count('HEAD')} commits (${count('--merges', 'HEAD')} merges), 400 skills; median of ${runs} runs, peak RSS the max`,
  '',
  '| command | wall | CPU (user + sys) | peak RSS |',
  '|---|---:|---:|---:|',
];
try {
  const gitLog = ['git', 'log', '--format=%H %ct %s', '--', `skills/${skill}`];
  rows.push(series(`\`git log -- skills/${skill}\``, () => measure(gitLog, dir)));
  for (const [name, root] of [['after', here], ...(before ? [['before', resolve(before)]] : [])] as const) {
    const cli = (...command: string[]) => ['node', join(root, 'bin', 'skillgarden.js'), ...command];
    const embedded = { ...process.env, PATH: noGitBin };
    const row = (label: string, command: string[], cold: boolean, env?: NodeJS.ProcessEnv) =>
      series(
        `${name}: \`${command.slice(2).join(' ')}\`${env ? ' (isomorphic-git)' : ''}, ${cold ? 'cold' : 'warm'}`,
        () => measure(command, dir, env),
        cold ? dropCache : () => {},
      );
    rows.push(row('', cli('log', '--skill', skill), true));
    rows.push(row('', cli('log', '--skill', skill), false));
    rows.push(row('', cli('log'), false));
    rows.push(row('', cli('show', skill), false));
    rows.push(row('', cli('doctor'), false));
    if (name === 'after') {
      rows.push(row('', cli('log', '--skill', skill), false, embedded));
      rows.push(row('', cli('doctor'), false, embedded));
    }
  }
} finally {
  if (reuse === undefined) rmSync(dir, { recursive: true, force: true });
  rmSync(noGitBin, { recursive: true, force: true });
}
console.log(rows.join('\n'));
