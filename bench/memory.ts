/**
 * Peak memory of each command at 10,000 skills (issue 18, goal 6: each under 512 MiB): the built CLI
 * (bin/skillgarden.js, run `npm run build` first) as its own process under /usr/bin/time -v, over one
 * generated library (bench/generate-library.ts) in a git repository, every skill adopted (so `plan` and
 * `curate` have curated skills to work on). `detect`'s, end to end, is
 * bench/detect-scale.ts's.
 * Run: `npx tsx bench/memory.ts [skills]` (default 10000).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatedName, generateLibrary } from './generate-library.js';

const count = Number(process.argv[2] ?? 10_000);
const now = '2026-11-30T00:00:00Z';
const cli = join(import.meta.dirname, '..', 'bin', 'skillgarden.js');
const limitMiB = 512;

const commands: [string, string[]][] = [
  ['validate (scan included)', ['validate', '--no-cache', 'skills']],
  ['scan', ['scan', '--no-cache', 'skills']],
  ['curate --dry-run', ['curate', '--dry-run', '--json']],
  ['plan', ['plan', '--json']],
  ['registry load (reminder), cold, no index', ['reminder']],
  ['registry load (reminder), with the index', ['reminder']],
];

function run(dir: string, args: string[]): { ms: number; rssMiB: number; code: number | null } {
  const start = performance.now();
  const result = spawnSync('/usr/bin/time', ['-v', process.execPath, cli, ...args, '--repo', dir, '--now', now], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr)?.[1];
  return { ms: performance.now() - start, rssMiB: Number(rss) / 1024, code: result.status };
}

const dir = mkdtempSync(join(tmpdir(), 'sg-bench-memory-'));
try {
  generateLibrary(dir, count);
  mkdirSync(join(dir, '.skillgarden'), { recursive: true });
  writeFileSync(join(dir, '.skillgarden', 'adopted.txt'), Array.from({ length: count }, (_, i) => generatedName(i)).join('\n') + '\n');
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_DATE: '1780000000 +0000', GIT_COMMITTER_DATE: '1780000000 +0000' };
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], { cwd: dir, env });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'library');
  const rows = ['| command | skills | wall | peak RSS | under 512 MiB |', '|---|---:|---:|---:|---|'];
  for (const [label, args] of commands) {
    if (label.includes('no index')) rmSync(join(dir, '.git', 'skillgarden', 'registry-index.json'), { force: true });
    const result = run(dir, args);
    rows.push(
      `| ${label} | ${count.toLocaleString('en-US')} | ${(result.ms / 1000).toFixed(1)} s | ${result.rssMiB.toFixed(0)} MiB | ${result.rssMiB < limitMiB ? 'yes' : '**no**'}${result.code === 0 ? '' : ` (exit ${result.code})`} |`,
    );
    console.error(rows.at(-1));
  }
  console.log(rows.join('\n'));
} finally {
  // Retried: a git process the commands left running (auto gc) may still be writing into .git.
  rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}
