/**
 * One skill of N files beside a small library (issue #30 item 4): the commands as a person runs them, each a fresh
 * `node bin/skillgarden.js` process timed by `/usr/bin/time -v` (wall, CPU, peak RSS): `archive`, `rollback` of that
 * archive (a move back), `manage patch` of one line, a curator run that archives the skill, `restore`. The repository is
 * written with plain git (`git add -A`, one commit dated long ago, an agent's creation, so the curator archives it; then
 * `git gc`, in the foreground).
 * `--before DIR` runs another checkout's build on a fresh copy of the same repository, for a side-by-side figure;
 * `--only archive,patch` limits the commands (a slow "before" at 100,000 files takes many minutes per command).
 * Run: `npm run build`, then `npx tsx bench/big-skill.ts [sizes=20000,100000] [--before DIR] [--only …]`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args.splice(at, 2)[1];
};
const before = option('--before');
const only = option('--only')?.split(',');
const sizes = (args[0] ?? '20000,100000').split(',').map(Number);
const here = resolve(import.meta.dirname, '..');
const old = { GIT_AUTHOR_DATE: '2020-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2020-01-01T00:00:00Z' };
const env = { ...process.env, GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'b@example.com', GIT_COMMITTER_NAME: 'bench' };
const gitEnv = { ...env, GIT_COMMITTER_EMAIL: 'b@example.com', ...old };

interface Sample {
  wallMs: number;
  cpuMs: number;
  rssMb: number;
  status: number;
}

const skill = (name: string, body: string) =>
  `---\nname: ${name}\ndescription: ${body}. Use when the bench asks for it.\n---\n\n# ${name}\n\n${body}.\n`;

/** A library of five skills and `big`, whose files sit in nested folders, 50 to a folder. */
function generate(files: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'sg-big-'));
  const git = (...a: string[]) => execFileSync('git', a, { cwd: dir, env: gitEnv, stdio: 'pipe', maxBuffer: 1 << 30 });
  git('init', '-q', '-b', 'main');
  for (let i = 0; i < 5; i++) {
    mkdirSync(join(dir, 'skills', `small-${i}`), { recursive: true });
    writeFileSync(join(dir, 'skills', `small-${i}`, 'SKILL.md'), skill(`small-${i}`, `Small skill ${i}`));
  }
  const big = join(dir, 'skills', 'big');
  mkdirSync(big, { recursive: true });
  writeFileSync(join(big, 'SKILL.md'), skill('big', 'A skill with many reference files'));
  for (let i = 0; i < files - 1; i++) {
    const folder = join(big, 'references', `part-${Math.floor(i / 2500)}`, `group-${Math.floor(i / 50) % 50}`);
    if (i % 50 === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `note-${i}.md`), `# Note ${i}\n\nLine ${i} of the big skill.\n`);
  }
  git('add', '-A');
  // An agent's creation, long ago: the curator's to archive.
  // gc.auto off for the commit: with 100,000 loose objects it starts `git gc --auto` in the background, which packed
  // while the commands ran (their CPU, fsck, the clean-up). The repository is packed here instead, as a user's is.
  git(
    '-c',
    'gc.auto=0',
    'commit',
    '-q',
    '-m',
    'skill(create): big\n\nSkill-Action: create\nSkill-Name: big\nSkill-Actor: agent\nSkill-Source: background',
  );
  git('gc', '-q');
  return dir;
}

function measure(command: string[], cwd: string): Sample {
  const result = spawnSync('/usr/bin/time', ['-v', ...command], { cwd, env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const wall = /Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)/.exec(result.stderr);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr);
  if (!wall || !rss) throw new Error(`${command.join(' ')} did not run:\n${result.stderr}`);
  const seconds = (name: string) => Number(new RegExp(`${name} time \\(seconds\\): ([\\d.]+)`).exec(result.stderr)?.[1] ?? NaN);
  if (result.status !== 0)
    console.error(`${command.slice(2).join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr.slice(0, 2000)}`);
  return {
    wallMs: (Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3])) * 1000,
    cpuMs: (seconds('User') + seconds('System')) * 1000,
    rssMb: Number(rss[1]) / 1024,
    status: result.status ?? -1,
  };
}

const time = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);

function runAll(label: string, root: string, dir: string, files: number): string[] {
  const cli = (...command: string[]) => ['node', join(root, 'bin', 'skillgarden.js'), ...command];
  const head = () => execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
  const steps: Array<[string, () => string[]]> = [
    ['archive', () => cli('archive', 'big')],
    ['rollback', () => cli('rollback', head())],
    ['patch', () => cli('manage', 'patch', 'big', '--old', '# big', '--new', '# The big skill')],
    ['curate', () => cli('--now', '2030-01-01T00:00:00Z', 'curate')],
    ['restore', () => cli('restore', 'big')],
  ];
  const rows: string[] = [];
  for (const [name, command] of steps) {
    if (only && !only.includes(name)) continue;
    const s = measure(command(), dir);
    const row = `| ${files.toLocaleString('en')} | ${label} | \`${name}\` | ${time(s.wallMs)} | ${time(s.cpuMs)} | ${Math.round(s.rssMb)} MB | ${s.status} |`;
    console.error(row);
    rows.push(row);
  }
  const fsck = spawnSync('git', ['fsck', '--no-dangling'], { cwd: dir, encoding: 'utf8' });
  const status = execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' });
  if (fsck.status !== 0 || status !== '') console.error(`${label}: fsck ${fsck.status}, status:\n${status.slice(0, 500)}`);
  return rows;
}

const rows = [
  `load average ${loadavg()[0]?.toFixed(1)}; one fresh process per command`,
  '',
  '| files | build | command | wall | CPU | peak RSS | exit |',
  '|---:|---|---|---:|---:|---:|---:|',
];
for (const files of sizes) {
  for (const [label, root] of [['after', here], ...(before ? [['before', resolve(before)]] : [])] as const) {
    const dir = generate(files);
    try {
      rows.push(...runAll(label, root, dir, files));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
console.log(rows.join('\n'));
