import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Ledger, LedgerBackend } from '../../src/ledger/ledger.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { fixedAuthor, git, makeRepo, rejectsWith } from './git-repo.js';

const backends: LedgerBackend[] = ['isomorphic-git', 'system-git'];
const crashChild = fileURLToPath(new URL('./fixtures/crash-child.ts', import.meta.url));

describe.each(backends)('Ledger conformance (%s)', (backend) => {
  let dir: string;
  let cleanup: () => void;
  let ledger: Ledger;
  const commit = (message: string, changes: Parameters<Ledger['commit']>[0]['changes']) =>
    ledger.commit({ message, changes, author: fixedAuthor });
  const read = (path: string) => readFileSync(join(dir, path), 'utf8');
  const expectHealthy = () => {
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(() => git(dir, 'fsck', '--strict', '--no-progress')).not.toThrow();
  };

  beforeEach(async () => {
    ({ dir, cleanup } = makeRepo());
    ledger = await openLedger(dir, { backend, lockTimeoutMs: 150 });
  });
  afterEach(async () => {
    await ledger.close();
    cleanup();
  });

  it('makes the first commit of an empty repository', async () => {
    expect(await ledger.head()).toBeUndefined();
    const { commit: id, attempts } = await commit('first', [{ path: 'skills/a/SKILL.md', content: 'a\n' }]);
    expect(attempts).toBe(1);
    expect(await ledger.head()).toBe(id);
    expect(git(dir, 'rev-list', '--count', 'HEAD').trim()).toBe('1');
    expect(read('skills/a/SKILL.md')).toBe('a\n');
    expectHealthy();
  });

  it('creates, updates and deletes, touching only the given paths', async () => {
    await commit('seed', [
      { path: 'skills/a/SKILL.md', content: 'a\n' },
      { path: 'skills/b/SKILL.md', content: 'b\n' },
      { path: 'skills/b/references/deep.md', content: 'deep\n' },
      { path: 'README.md', content: 'readme\n' },
    ]);
    const { commit: id } = await commit('mixed', [
      { path: 'skills/a/SKILL.md', content: 'a2\n' },
      { path: 'skills/c/scripts/run.sh', content: '#!/bin/sh\n', executable: true },
      { path: 'skills/b/references/deep.md', content: null },
    ]);
    expect((await ledger.changedFiles(id)).map((c) => c.path)).toEqual([
      'skills/a/SKILL.md',
      'skills/b/references/deep.md',
      'skills/c/scripts/run.sh',
    ]);
    expect(git(dir, 'show', '--name-status', '--format=', id).trim().split('\n')).toEqual([
      'M\tskills/a/SKILL.md',
      'D\tskills/b/references/deep.md',
      'A\tskills/c/scripts/run.sh',
    ]);
    expect(read('skills/a/SKILL.md')).toBe('a2\n');
    expect(existsSync(join(dir, 'skills/b/references'))).toBe(false);
    expect(git(dir, 'ls-files', '-s', 'skills/c/scripts/run.sh')).toMatch(/^100755 /);
    expect(Buffer.from((await ledger.readFile('skills/a/SKILL.md', `${id}~1`.replace('~1', '')))!).toString()).toBe('a2\n');
    expectHealthy();
  });

  it('keeps tree entries in git order when inserting names that sort around a folder', async () => {
    for (const path of ['skills/a/x.md', 'skills/a.md', 'skills/a-b.md', 'skills/ä.md', 'skills/a0/y.md', 'skills/A.md']) {
      await commit(`add ${path}`, [{ path, content: `${path}\n` }]);
    }
    await commit('remove', [
      { path: 'skills/a/x.md', content: null },
      { path: 'skills/a/z.md', content: 'z\n' },
    ]);
    expectHealthy();
    expect(git(dir, '-c', 'core.quotePath=false', 'ls-tree', '--name-only', 'HEAD', 'skills/').trim().split('\n')).toEqual([
      'skills/A.md',
      'skills/a-b.md',
      'skills/a.md',
      'skills/a',
      'skills/a0',
      'skills/ä.md',
    ]);
  });

  it('reads files, lists folders, tags and resolves', async () => {
    const first = (await commit('one', [{ path: 'skills/a/SKILL.md', content: 'v1\n' }])).commit;
    await commit('two', [
      { path: 'skills/a/SKILL.md', content: 'v2\n' },
      { path: 'skills/b/SKILL.md', content: 'b\n' },
    ]);
    expect(Buffer.from((await ledger.readFile('skills/a/SKILL.md', first))!).toString()).toBe('v1\n');
    expect(await ledger.readFile('skills/b/SKILL.md', first)).toBeUndefined();
    expect((await ledger.listFiles('skills/')).map((f) => f.path)).toEqual(['skills/a/SKILL.md', 'skills/b/SKILL.md']);
    expect(await ledger.listFiles('nowhere')).toEqual([]);
    expect(await ledger.tag('skillgarden/run/r1', first)).toBe(first);
    expect(git(dir, 'rev-parse', 'skillgarden/run/r1').trim()).toBe(first);
    expect(await ledger.resolve('skillgarden/run/r1')).toBe(first);
    expect(await ledger.resolve(first.slice(0, 10))).toBe(first);
    // Annotated tags are peeled to their commit, loose or packed, through a tag of a tag.
    git(dir, 'tag', '-a', 'v1', '-m', 'release one', first);
    git(dir, 'tag', '-a', 'v1-again', '-m', 'a tag of a tag', 'v1');
    expect(await ledger.resolve('v1')).toBe(first);
    expect(await ledger.resolve('v1-again')).toBe(first);
    git(dir, 'pack-refs', '--all');
    git(dir, 'repack', '-a', '-d', '-q');
    expect(await ledger.resolve('refs/tags/v1')).toBe(first);
    await rejectsWith(ledger.resolve('no-such-ref'), 'ledger/unknown-ref');
    await rejectsWith(ledger.tag('skillgarden/run/r1'), 'ledger/tag-exists');
    await rejectsWith(ledger.tag('bad..name'), 'ledger/bad-ref-name');
  });

  it('interoperates with plain git commit and packed refs', async () => {
    await commit('ours 1', [{ path: 'skills/a/SKILL.md', content: 'a\n' }]);
    writeFileSync(join(dir, 'notes.txt'), 'person\n');
    git(dir, 'add', 'notes.txt');
    git(dir, 'commit', '-q', '-m', 'person 1');
    writeFileSync(join(dir, 'staged.txt'), 'staged\n');
    git(dir, 'add', 'staged.txt');
    git(dir, 'pack-refs', '--all');
    await commit('ours 2', [{ path: 'skills/b/SKILL.md', content: 'b\n' }]);
    expect(git(dir, 'status', '--porcelain')).toBe('A  staged.txt\n');
    git(dir, 'commit', '-q', '-m', 'person 2');
    expect(git(dir, 'log', '--format=%s').trim().split('\n')).toEqual(['person 2', 'ours 2', 'person 1', 'ours 1']);
    expect(git(dir, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('staged.txt');
    expect(git(dir, 'reflog', '--format=%gs').split('\n').length).toBeGreaterThan(3);
    expectHealthy();
  });

  it('refuses to clobber uncommitted edits, naming the files', async () => {
    await commit('seed', [
      { path: 'skills/a/SKILL.md', content: 'a\n' },
      { path: 'skills/b/SKILL.md', content: 'b\n' },
    ]);
    const head = await ledger.head();
    writeFileSync(join(dir, 'skills/a/SKILL.md'), 'a person was here\n');
    writeFileSync(join(dir, 'skills/new.md'), 'untracked\n');
    writeFileSync(join(dir, 'skills/b/SKILL.md'), 'staged\n');
    git(dir, 'add', 'skills/b/SKILL.md');
    writeFileSync(join(dir, 'skills/b/SKILL.md'), 'b\n');
    const data = await rejectsWith(
      commit('x', [
        { path: 'skills/a/SKILL.md', content: 'mine\n' },
        { path: 'skills/new.md', content: 'mine\n' },
        { path: 'skills/b/SKILL.md', content: 'mine\n' },
      ]),
      'ledger/dirty',
    );
    expect(data.paths).toEqual(['skills/a/SKILL.md', 'skills/new.md', 'skills/b/SKILL.md']);
    expect(await ledger.head()).toBe(head);
    expect(read('skills/a/SKILL.md')).toBe('a person was here\n');
    // A file already holding exactly the new content loses nothing.
    await commit('same', [{ path: 'skills/new.md', content: 'untracked\n' }]);
  });

  it.each([
    ['../outside.md'],
    ['/etc/passwd'],
    ['.git/config'],
    ['skills/.GIT/hooks/x'],
    ['skills/./a.md'],
    ['skills//a.md'],
    ['skills\\a.md'],
    [''],
  ])('refuses the bad path %j', async (path) => {
    await rejectsWith(commit('bad', [{ path, content: 'x' }]), 'ledger/bad-path');
    expect(await ledger.head()).toBeUndefined();
  });

  it('refuses paths through a symlink, a file in the way, or twice in one commit', async () => {
    await commit('seed', [{ path: 'skills/a/SKILL.md', content: 'a\n' }]);
    mkdirSync(join(dir, 'elsewhere'));
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'skills/link'));
    await rejectsWith(commit('x', [{ path: 'skills/link/SKILL.md', content: 'x' }]), 'ledger/bad-path');
    await rejectsWith(commit('x', [{ path: 'skills/a/SKILL.md/inner', content: 'x' }]), 'ledger/bad-path');
    await rejectsWith(commit('x', [{ path: 'skills/a', content: 'x' }]), 'ledger/bad-path');
    const twice = { path: 'skills/b.md', content: 'x' };
    await rejectsWith(commit('x', [twice, twice]), 'ledger/bad-path');
    expect(existsSync(join(dir, 'elsewhere/SKILL.md'))).toBe(false);
  });

  it('checks expected blob ids', async () => {
    await commit('seed', [{ path: 'skills/a/SKILL.md', content: 'a\n' }]);
    const [file] = await ledger.listFiles('skills/a');
    await rejectsWith(commit('x', [{ path: 'skills/a/SKILL.md', content: 'b', expected: null }]), 'ledger/conflict');
    const data = await rejectsWith(commit('x', [{ path: 'skills/a/SKILL.md', content: 'b', expected: '0'.repeat(40) }]), 'ledger/conflict');
    expect(data.paths).toEqual(['skills/a/SKILL.md']);
    await commit('ok', [
      { path: 'skills/a/SKILL.md', content: 'b', expected: file!.oid },
      { path: 'skills/z.md', content: 'z', expected: null },
    ]);
  });

  it.each([
    ['rebuilds on the new head when the branch moves meanwhile', undefined],
    ['reports a conflict when the move changed a path it expected unchanged', 'expected'],
  ])('%s', async (_name, mode) => {
    await commit('seed', [{ path: 'skills/a/SKILL.md', content: 'a\n' }]);
    const [seeded] = await ledger.listFiles('skills/a');
    let moved = false;
    const racing = await openLedger(dir, {
      backend,
      lockTimeoutMs: 150,
      onStage: (stage) => {
        if (stage !== 'objects-written' || moved) return;
        moved = true;
        writeFileSync(join(dir, 'skills/a/SKILL.md'), 'person\n');
        git(dir, 'commit', '-q', '-am', 'a person, meanwhile');
      },
    });
    const change = { path: 'skills/a/SKILL.md', content: 'ledger\n', ...(mode ? { expected: seeded!.oid } : {}) };
    const attempt = racing.commit({ message: 'racing', changes: [change], author: fixedAuthor });
    if (mode) {
      expect((await rejectsWith(attempt, 'ledger/conflict')).paths).toEqual(['skills/a/SKILL.md']);
      expect(read('skills/a/SKILL.md')).toBe('person\n');
    } else {
      expect((await attempt).attempts).toBe(2);
      expect(git(dir, 'log', '--format=%s').trim().split('\n')).toEqual(['racing', 'a person, meanwhile', 'seed']);
    }
    await racing.close();
    expectHealthy();
  });

  it('refuses to write an index of only its own paths when the index is missing', async () => {
    await commit('seed', [
      { path: 'skills/a/SKILL.md', content: 'a\n' },
      { path: 'README.md', content: 'r\n' },
    ]);
    rmSync(join(dir, '.git', 'index'));
    await rejectsWith(commit('x', [{ path: 'skills/b.md', content: 'b' }]), 'ledger/no-index');
    await rejectsWith(commit('x', [{ path: 'skills/a/SKILL.md', content: 'b' }]), 'ledger/no-index');
    git(dir, 'reset', '-q');
    await commit('x', [{ path: 'skills/b.md', content: 'b' }]);
    expectHealthy();
  });

  it('refuses a detached HEAD', async () => {
    const { commit: id } = await commit('seed', [{ path: 'skills/a/SKILL.md', content: 'a\n' }]);
    git(dir, 'checkout', '-q', '--detach', id);
    expect(await ledger.head()).toBe(id);
    await rejectsWith(commit('x', [{ path: 'skills/b.md', content: 'b' }]), 'ledger/detached-head');
  });

  it.each([['index.lock'], ['refs/heads/main.lock']])('reports a stale %s with its path and leaves it there', async (lock) => {
    await commit('seed', [{ path: 'skills/a/SKILL.md', content: 'a\n' }]);
    const lockPath = join(dir, '.git', lock);
    writeFileSync(lockPath, '');
    const data = await rejectsWith(commit('x', [{ path: 'skills/b.md', content: 'b' }]), 'ledger/locked');
    expect(data.path).toBe(lockPath);
    expect(existsSync(lockPath)).toBe(true);
  });

  it('reads and writes after git gc packed every object and ref', async () => {
    const first = (await commit('one', [{ path: 'skills/a/SKILL.md', content: 'v1\n' }])).commit;
    git(dir, 'gc', '-q', '--prune=now');
    expect(Buffer.from((await ledger.readFile('skills/a/SKILL.md', first))!).toString()).toBe('v1\n');
    await commit('two', [{ path: 'skills/a/SKILL.md', content: 'v2\n' }]);
    expect(await ledger.rollback({ commit: (await ledger.head())! })).toMatchObject({ status: 'reverted' });
    expect(read('skills/a/SKILL.md')).toBe('v1\n');
    expectHealthy();
  });

  it.runIf(backend === 'isomorphic-git')('needs no git binary on the PATH', async () => {
    await commit('seed', [{ path: 'skills/a/SKILL.md', content: 'a\n' }]);
    const child = spawnSync(process.execPath, ['--import', 'tsx', crashChild, dir, backend, 'never'], {
      env: { ...process.env, PATH: '/nonexistent' },
    });
    expect(child.status, child.stderr.toString()).toBe(0);
    expect(git(dir, 'log', '-1', '--format=%s').trim()).toBe('doomed');
    expectHealthy();
  });

  it('stays consistent when killed between writing objects and moving the ref', async () => {
    await commit('seed', [{ path: 'skills/a/SKILL.md', content: 'a\n' }]);
    const head = await ledger.head();
    const child = spawnSync(process.execPath, ['--import', 'tsx', crashChild, dir, backend, 'objects-written']);
    expect(child.signal).toBe('SIGKILL');
    expect(await ledger.head()).toBe(head);
    expect(existsSync(join(dir, 'skills/doomed'))).toBe(false);
    expectHealthy();
    await commit('after the crash', [{ path: 'skills/b/SKILL.md', content: 'b\n' }]);
    expectHealthy();
  });

  it('stages the change and reports the left-over ref lock when killed before moving the ref', async () => {
    await commit('seed', [{ path: 'skills/a/SKILL.md', content: 'a\n' }]);
    const head = await ledger.head();
    const child = spawnSync(process.execPath, ['--import', 'tsx', crashChild, dir, backend, 'index-written']);
    expect(child.signal).toBe('SIGKILL');
    expect(await ledger.head()).toBe(head);
    expect(() => git(dir, 'fsck', '--strict', '--no-progress')).not.toThrow();
    expect(git(dir, 'status', '--porcelain')).toBe('A  skills/doomed/SKILL.md\n');
    const data = await rejectsWith(commit('next', [{ path: 'skills/b/SKILL.md', content: 'b\n' }]), 'ledger/locked');
    expect(data.path).toBe(join(dir, '.git', 'refs', 'heads', 'main.lock'));
    // What a person does after reading the message: remove the lock, then keep or drop the staged change.
    rmSync(join(dir, '.git', 'refs', 'heads', 'main.lock'));
    git(dir, 'reset', '-q', '--hard');
    await commit('next', [{ path: 'skills/b/SKILL.md', content: 'b\n' }]);
    expectHealthy();
  });

  it('leaves nothing behind when killed right after moving the ref', async () => {
    await commit('seed', [{ path: 'skills/a/SKILL.md', content: 'a\n' }]);
    const child = spawnSync(process.execPath, ['--import', 'tsx', crashChild, dir, backend, 'ref-updated']);
    expect(child.signal).toBe('SIGKILL');
    expect(git(dir, 'log', '-1', '--format=%s').trim()).toBe('doomed');
    expectHealthy();
    await commit('next', [{ path: 'skills/b/SKILL.md', content: 'b\n' }]);
  });
});
