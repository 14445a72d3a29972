import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { git, makeRepo } from './git-repo.js';

// The full 4 × 50 takes ~15 s on a loaded 2-core machine; LEDGER_CONCURRENCY_PER_WRITER overrides it.
const perWriter = Number(process.env.LEDGER_CONCURRENCY_PER_WRITER ?? 50);
const writers = [
  { id: 'w0', backend: 'isomorphic-git' },
  { id: 'w1', backend: 'system-git' },
  { id: 'w2', backend: 'isomorphic-git' },
  { id: 'w3', backend: 'system-git' },
];
const writerChild = fileURLToPath(new URL('./fixtures/writer-child.ts', import.meta.url));

interface WriterReport {
  writer: string;
  commits: string[];
  retries: number;
  stoppedBy?: string;
}

/** A person running plain `git add` + `git commit` in a loop, retrying while the index or ref is locked. */
const gitLoop = `
i=0
while [ ! -f "$STOP" ]; do
  i=$((i+1)); mkdir -p other; echo "$i" > "other/git-$i.txt"
  n=0; until git add "other/git-$i.txt" 2>/dev/null; do n=$((n+1)); [ $n -gt 1000 ] && exit 1; sleep 0.01; done
  n=0; until git commit -q -m "git $i" 2>/dev/null; do n=$((n+1)); [ $n -gt 1000 ] && exit 2; sleep 0.01; done
done
echo "$i"`;

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code}: ${err}`))));
  });
}

async function runWriters(dir: string, count: number): Promise<WriterReport[]> {
  const outputs = await Promise.all(
    writers.map((w) => run(process.execPath, ['--import', 'tsx', writerChild, dir, w.backend, w.id, String(count)], process.cwd())),
  );
  return outputs.map((out) => JSON.parse(out) as WriterReport);
}

describe('Ledger under concurrent writers', () => {
  let repo: ReturnType<typeof makeRepo>;
  beforeEach(() => {
    repo = makeRepo();
    writeFileSync(join(repo.dir, 'README.md'), 'seed\n');
    git(repo.dir, 'add', 'README.md');
    git(repo.dir, 'commit', '-q', '-m', 'seed');
  });
  afterEach(() => repo.cleanup());

  it(
    `keeps all ${writers.length} × ${perWriter} commits of mixed-backend writers, tree and index equal to HEAD`,
    { timeout: 120_000 },
    async () => {
      const reports = await runWriters(repo.dir, perWriter);
      expect(reports.map((r) => r.stoppedBy)).toEqual(writers.map(() => undefined));
      const subjects = git(repo.dir, 'log', '--format=%s').trim().split('\n');
      for (const w of writers) expect(new Set(subjects.filter((s) => s.startsWith(`${w.id} m`))).size).toBe(perWriter);
      expect(subjects.length).toBe(writers.length * perWriter + 1);
      expect(() => git(repo.dir, 'fsck', '--strict', '--no-progress')).not.toThrow();
      expect(git(repo.dir, 'status', '--porcelain')).toBe('');
    },
  );

  /*
   * With plain `git commit` running alongside, git itself can revert another
   * writer's index entries: an as-is `git commit` reads the index *before*
   * taking index.lock and writes that snapshot back after refreshing it
   * (builtin/commit.c, prepare_index). No lock protocol can prevent that, so
   * here the guarantees are: no commit of either side is lost from the
   * branch, the repository stays valid, and a ledger writer that finds the
   * index reverted refuses (`ledger/dirty`) instead of overwriting anything.
   */
  it('loses no commit, ledger or git, when plain git commit runs in a loop alongside', { timeout: 120_000 }, async () => {
    const stop = join(repo.dir, '.git', 'stop-loop');
    const loop = run('bash', ['-c', gitLoop], repo.dir, { STOP: stop });
    const reports = await runWriters(repo.dir, perWriter);
    writeFileSync(stop, '');
    const gitCommits = Number((await loop).trim());

    const history = new Set(git(repo.dir, 'rev-list', 'HEAD').trim().split('\n'));
    for (const report of reports) {
      expect([undefined, 'ledger/dirty']).toContain(report.stoppedBy);
      for (const commit of report.commits) expect(history.has(commit), `${report.writer}'s ${commit} on the branch`).toBe(true);
    }
    const subjects = git(repo.dir, 'log', '--format=%s').trim().split('\n');
    expect(gitCommits, 'plain git commits that ran alongside').toBeGreaterThan(0);
    expect(subjects.filter((s) => s.startsWith('git ')).length).toBe(gitCommits);
    expect(subjects.length).toBe(reports.reduce((sum, r) => sum + r.commits.length, 0) + gitCommits + 1);
    expect(() => git(repo.dir, 'fsck', '--strict', '--no-progress')).not.toThrow();
  });
});
