import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('Ledger under concurrent writers', () => {
  let repo: ReturnType<typeof makeRepo>;
  beforeAll(() => {
    repo = makeRepo();
    writeFileSync(join(repo.dir, 'README.md'), 'seed\n');
    git(repo.dir, 'add', 'README.md');
    git(repo.dir, 'commit', '-q', '-m', 'seed');
  });
  afterAll(() => repo.cleanup());

  it(`keeps all ${writers.length} × ${perWriter} ledger commits and every plain git commit`, { timeout: 120_000 }, async () => {
    const stop = join(repo.dir, '.git', 'stop-loop');
    const loop = run('bash', ['-c', gitLoop], repo.dir, { STOP: stop });
    const results = await Promise.all(
      writers.map((w) => run(process.execPath, ['--import', 'tsx', writerChild, repo.dir, w.backend, w.id, String(perWriter)], process.cwd())),
    );
    writeFileSync(stop, '');
    const gitCommits = Number((await loop).trim());

    const subjects = git(repo.dir, 'log', '--format=%s').trim().split('\n');
    for (const w of writers) {
      const mine = subjects.filter((s) => s.startsWith(`${w.id} m`));
      expect(new Set(mine).size, `${w.id}'s commits in git log`).toBe(perWriter);
    }
    expect(gitCommits, 'plain git commits that ran alongside').toBeGreaterThan(0);
    expect(subjects.filter((s) => s.startsWith('git ')).length).toBe(gitCommits);
    expect(subjects.length).toBe(writers.length * perWriter + gitCommits + 1);
    expect(() => git(repo.dir, 'fsck', '--strict', '--no-progress')).not.toThrow();
    expect(git(repo.dir, 'status', '--porcelain')).toBe('');
    expect(results.map((r) => (JSON.parse(r) as { writer: string }).writer)).toEqual(writers.map((w) => w.id));
  });
});
