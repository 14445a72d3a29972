import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { LedgerBackend } from '../../../src/ledger/ledger.js';
import { openLedger } from '../../../src/ledger/open-ledger.js';
import { rejectsWith } from '../git-repo.js';
import { makeContext } from './setups.js';
import type { BuildContext } from './setups.js';

/*
 * Bad input and faults (issue #13): each gets a message naming what and how
 * to proceed, and nothing is written: HEAD, the index and the files stay.
 */

const backends: LedgerBackend[] = ['system-git', 'isomorphic-git'];
const savedEnv = { ...process.env };
const crashChild = fileURLToPath(new URL('../fixtures/crash-child.ts', import.meta.url));

const roots: string[] = [];
afterEach(() => {
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A setup folder removed after the test. */
function context(): BuildContext {
  const ctx = makeContext();
  roots.push(ctx.root);
  return ctx;
}

function repo(
  config: string[][] = [
    ['user.name', 'Ada Repo'],
    ['user.email', 'ada@repo.example'],
  ],
) {
  const ctx = context();
  for (const key of Object.keys(process.env)) if (/^GIT_/.test(key)) delete process.env[key];
  Object.assign(process.env, ctx.env);
  const dir = join(ctx.root, 'repo');
  mkdirSync(dir);
  const git = (...args: string[]) => ctx.git(dir, ...args);
  git('init', '-q', '-b', 'main');
  for (const [key, value] of config) git('config', key!, value!);
  writeFileSync(join(dir, 'README.md'), 'a\n');
  git('-c', 'user.name=Seed', '-c', 'user.email=seed@example.com', 'add', '-A');
  git('-c', 'user.name=Seed', '-c', 'user.email=seed@example.com', '-c', 'commit.gpgSign=false', 'commit', '-q', '-m', 'seed');
  return { ctx, dir, git };
}

/*
 * A read-only git folder. Root ignores permission bits (as root, `chmod a-w` stops nothing), so as
 * root the folder is made immutable (`chattr -R +i`, ext4 and others): creating any file in it then
 * fails with EPERM, as it fails with EACCES for a user without write permission.
 */
const readOnlyUnavailable =
  'running as root and chattr +i is not permitted here (no CAP_LINUX_IMMUTABLE, or a file system without the flag): a read-only .git cannot be made';

function makeReadOnly(gitdir: string): (() => void) | undefined {
  if (process.getuid?.() !== 0) {
    execFileSync('chmod', ['-R', 'a-w', gitdir]);
    return () => execFileSync('chmod', ['-R', 'u+w', gitdir]);
  }
  const made = spawnSync('chattr', ['-R', '+i', gitdir]);
  const undo = () => void spawnSync('chattr', ['-R', '-i', gitdir]);
  if (made.status === 0) return undo;
  undo();
  return undefined;
}

const change = [{ path: 'skills/a/SKILL.md', content: 'a\n' }];

describe.each(backends)('faults (%s)', (backend) => {
  const refusedCleanly = async (dir: string, git: (...a: string[]) => string, code: string) => {
    const head = git('rev-parse', 'HEAD');
    const ledger = await openLedger(dir, { backend, lockTimeoutMs: 100 });
    try {
      const data = await rejectsWith(ledger.commit({ message: 'x', changes: change }), code);
      expect(git('rev-parse', 'HEAD')).toBe(head);
      expect(existsSync(join(dir, 'skills/a/SKILL.md'))).toBe(false);
      return data;
    } finally {
      await ledger.close();
    }
  };

  it('refuses during a merge in progress, naming how to finish it', async () => {
    const { dir, git } = repo();
    git('checkout', '-q', '-b', 'other');
    writeFileSync(join(dir, 'README.md'), 'other\n');
    git('commit', '-q', '-am', 'other');
    git('checkout', '-q', 'main');
    writeFileSync(join(dir, 'README.md'), 'main\n');
    git('commit', '-q', '-am', 'main');
    expect(() => git('merge', '-q', 'other')).toThrow();
    const data = await refusedCleanly(dir, git, 'ledger/operation-in-progress');
    expect(data.file).toBe('MERGE_HEAD');
  });

  it('refuses during a rebase in progress', async () => {
    const { dir, git } = repo();
    git('checkout', '-q', '-b', 'other');
    writeFileSync(join(dir, 'README.md'), 'other\n');
    git('commit', '-q', '-am', 'other');
    git('checkout', '-q', 'main');
    writeFileSync(join(dir, 'README.md'), 'main\n');
    git('commit', '-q', '-am', 'main');
    git('checkout', '-q', 'other');
    expect(() => git('rebase', '-q', 'main')).toThrow();
    git('add', 'README.md');
    // A conflicted rebase leaves HEAD detached; put it back on a branch so the rebase state is what is refused.
    git('symbolic-ref', 'HEAD', 'refs/heads/other');
    await refusedCleanly(dir, git, 'ledger/operation-in-progress');
  });

  it('refuses when the branch is checked out in another worktree too', async () => {
    const { ctx, dir, git } = repo();
    const other = join(ctx.root, 'second');
    git('worktree', 'add', '-q', '--force', other, 'main');
    const data = await refusedCleanly(dir, git, 'ledger/branch-checked-out-elsewhere');
    expect(data.worktree).toBe(other);
  });

  it('refuses GIT_INDEX_FILE', async () => {
    const { dir, git } = repo();
    process.env.GIT_INDEX_FILE = join(dir, 'other-index');
    await refusedCleanly(dir, git, 'ledger/index-file-set');
  });

  it('refuses a write outside the sparse checkout, naming the command that widens it', async () => {
    const { dir, git } = repo();
    git('sparse-checkout', 'set', '--cone', 'docs');
    const data = await refusedCleanly(dir, git, 'ledger/outside-sparse');
    expect(data.paths).toEqual(['skills/a/SKILL.md']);
  });

  it('refuses with a clear error when no identity is set anywhere, and takes the headless-agent setting', async () => {
    const { dir, git } = repo([['user.useConfigOnly', 'true']]);
    await refusedCleanly(dir, git, 'ledger/no-identity');
    Object.assign(process.env, { SKILLGARDEN_AUTHOR_NAME: 'Agent Bot', SKILLGARDEN_AUTHOR_EMAIL: 'agent@bot.example' });
    const ledger = await openLedger(dir, { backend });
    await ledger.commit({ message: 'x', changes: change });
    await ledger.close();
    expect(git('log', '-1', '--format=%an <%ae>|%cn <%ce>').trim()).toBe('Agent Bot <agent@bot.example>|Agent Bot <agent@bot.example>');
  });

  it('keeps the repository identity over the headless-agent setting', async () => {
    const { dir, git } = repo();
    Object.assign(process.env, { SKILLGARDEN_AUTHOR_NAME: 'Agent Bot', SKILLGARDEN_AUTHOR_EMAIL: 'agent@bot.example' });
    const ledger = await openLedger(dir, { backend });
    await ledger.commit({ message: 'x', changes: change });
    await ledger.close();
    expect(git('log', '-1', '--format=%an <%ae>').trim()).toBe('Ada Repo <ada@repo.example>');
  });

  it('waits for a running git that holds index.lock, names the lock when it outlasts the timeout, and loses neither commit', async () => {
    const { ctx, dir, git } = repo();
    writeFileSync(join(dir, 'README.md'), 'a person edits\n');
    // `git commit -a` holds index.lock while its editor runs (a plain `git commit` lets it go before): the
    // editor waits for a flag, then writes the message.
    const flag = join(ctx.root, 'editor-may-finish');
    const editor = `f() { while [ ! -e '${flag}' ]; do sleep 0.05; done; echo 'a person commits' > "$1"; }; f`;
    const person = spawn('git', ['commit', '-a', '-q'], { cwd: dir, env: { ...process.env, GIT_EDITOR: editor }, stdio: 'ignore' });
    let running = true;
    const exited = new Promise<number | null>((done) => person.on('exit', (code) => done(((running = false), code))));
    while (running && !existsSync(join(dir, '.git', 'index.lock'))) await new Promise((done) => setTimeout(done, 20));
    expect(running, 'git commit exited before taking index.lock').toBe(true);
    const ledger = await openLedger(dir, { backend, lockTimeoutMs: 300 });
    try {
      const data = await rejectsWith(ledger.commit({ message: 'x', changes: change }), 'ledger/locked');
      expect(data.path).toBe(join(dir, '.git', 'index.lock'));
      expect(existsSync(join(dir, 'skills/a/SKILL.md'))).toBe(false);
      writeFileSync(flag, '');
      expect(await exited).toBe(0);
      await ledger.commit({ message: 'after the person', changes: change });
    } finally {
      await ledger.close();
    }
    expect(git('log', '--format=%s').trim().split('\n')).toEqual(['after the person', 'a person commits', 'seed']);
    expect(git('status', '--porcelain')).toBe('');
  });

  it('refuses a read-only git folder, naming it, and writes nothing', async (t) => {
    const { dir, git } = repo();
    const undo = makeReadOnly(join(dir, '.git'));
    if (!undo) return t.skip(readOnlyUnavailable);
    try {
      const data = await refusedCleanly(dir, git, 'ledger/read-only');
      expect(String(data.path)).toContain(join(dir, '.git'));
      expect(git('status', '--porcelain')).toBe('');
    } finally {
      undo();
    }
  });

  it('commits onto an unborn branch (a repository with no commits)', async () => {
    const ctx = context();
    Object.assign(process.env, ctx.env, {
      GIT_AUTHOR_NAME: 'Ada',
      GIT_AUTHOR_EMAIL: 'a@example.com',
      GIT_COMMITTER_NAME: 'Ada',
      GIT_COMMITTER_EMAIL: 'a@example.com',
    });
    const dir = join(ctx.root, 'empty');
    mkdirSync(dir);
    ctx.git(dir, 'init', '-q', '-b', 'main');
    const ledger = await openLedger(dir, { backend });
    await ledger.commit({ message: 'first', changes: change });
    await ledger.close();
    expect(ctx.git(dir, 'status', '--porcelain')).toBe('');
    expect(ctx.git(dir, 'log', '--format=%s').trim()).toBe('first');
  });
});

describe('signing that cannot be done', () => {
  it('refuses and writes nothing (system git: git tried to sign and failed)', async () => {
    const { dir, git } = repo([
      ['user.name', 'Ada Repo'],
      ['user.email', 'ada@repo.example'],
      ['gpg.format', 'ssh'],
      ['user.signingKey', '/nonexistent/no-such-key'],
      ['commit.gpgSign', 'true'],
    ]);
    const head = git('rev-parse', 'HEAD');
    const ledger = await openLedger(dir, { backend: 'system-git' });
    await rejectsWith(ledger.commit({ message: 'x', changes: change }), 'ledger/sign-failed');
    await ledger.close();
    expect(git('rev-parse', 'HEAD')).toBe(head);
    expect(git('status', '--porcelain')).toBe('');
  });
});

describe('the default backend', () => {
  it('is the system git when git is on the PATH', async () => {
    const { dir } = repo();
    const ledger = await openLedger(dir);
    expect(ledger.backend).toBe('system-git');
    await ledger.close();
  });

  it('is the embedded one with no git binary, and still commits', () => {
    const { dir, git } = repo();
    const child = spawnSync(process.execPath, ['--import', 'tsx', crashChild, dir, 'auto', 'never'], {
      env: { ...process.env, PATH: '/nonexistent' },
    });
    expect(child.status, child.stderr.toString()).toBe(0);
    expect(git('log', '-1', '--format=%s %an').trim()).toBe('doomed Ada Repo');
    expect(git('status', '--porcelain')).toBe('');
    execFileSync('git', ['fsck', '--strict', '--no-progress'], { cwd: dir, stdio: 'ignore' });
  });
});
