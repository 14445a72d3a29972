import { existsSync, lstatSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildCommitMessage } from '../../src/core/ledger/trailers.js';
import type { SkillAction } from '../../src/core/ledger/trailers.js';
import type { FileChange, Ledger, LedgerBackend } from '../../src/ledger/ledger.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { fixedAuthor, git, makeRepo, rejectsWith } from './git-repo.js';

const backends: LedgerBackend[] = ['isomorphic-git', 'system-git'];

describe.each(backends)('Ledger rollback conformance (%s)', (backend) => {
  let dir: string;
  let cleanup: () => void;
  let ledger: Ledger;
  const read = (path: string) => (existsSync(join(dir, path)) ? readFileSync(join(dir, path), 'utf8') : undefined);
  const mutate = async (action: SkillAction, skill: string, changes: FileChange[], run?: string) => {
    const message = buildCommitMessage({
      subject: `skill(${action}): ${skill} — test`,
      trailers: { action, skills: [skill], actor: run ? 'curator' : 'agent', ...(run ? { run } : {}), reverts: [] },
    });
    return (await ledger.commit({ message, changes, author: fixedAuthor })).commit;
  };
  const expectHealthy = () => {
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(() => git(dir, 'fsck', '--strict', '--no-progress')).not.toThrow();
  };

  beforeEach(async () => {
    ({ dir, cleanup } = makeRepo());
    ledger = await openLedger(dir, { backend, lockTimeoutMs: 150 });
    await mutate('create', 'a', [{ path: 'skills/a/SKILL.md', content: 'a1\n' }]);
  });
  afterEach(async () => {
    await ledger.close();
    cleanup();
  });

  it('reverts one commit as a commit carrying the rollback trailers', async () => {
    const patch = await mutate('patch', 'a', [
      { path: 'skills/a/SKILL.md', content: 'a2\n' },
      { path: 'skills/a/references/x.md', content: 'x\n' },
    ]);
    const result = await ledger.rollback({ commit: patch }, { author: fixedAuthor });
    expect(result).toMatchObject({ status: 'reverted', reverted: [patch], files: ['skills/a/SKILL.md', 'skills/a/references/x.md'] });
    expect(read('skills/a/SKILL.md')).toBe('a1\n');
    expect(existsSync(join(dir, 'skills/a/references'))).toBe(false);
    const format = '%(trailers:key=Skill-Action,valueonly)|%(trailers:key=Skill-Name,valueonly)|%(trailers:key=Reverts,valueonly)';
    expect(git(dir, 'log', '-1', `--format=${format}`).replace(/\n/g, '')).toBe(`rollback|a|${patch}`);
    expect(git(dir, 'log', '-1', '--format=%b')).toContain(`This reverts commit ${patch}.`);
    expectHealthy();
  });

  it('refuses when a file changed since, naming it and writing nothing', async () => {
    const patch = await mutate('patch', 'a', [
      { path: 'skills/a/SKILL.md', content: 'a2\n' },
      { path: 'skills/a/b.md', content: 'b\n' },
    ]);
    await mutate('patch', 'a', [{ path: 'skills/a/SKILL.md', content: 'a3\n' }]);
    const head = await ledger.head();
    const data = await rejectsWith(ledger.rollback({ commit: patch }), 'ledger/rollback-refused');
    expect(data).toMatchObject({ reason: 'changed-since', paths: ['skills/a/SKILL.md'] });
    expect(await ledger.head()).toBe(head);
    expect(read('skills/a/b.md')).toBe('b\n');
  });

  it('reports an already reverted commit as a no-op, and rolls back a rollback', async () => {
    const patch = await mutate('patch', 'a', [{ path: 'skills/a/SKILL.md', content: 'a2\n' }]);
    const first = await ledger.rollback({ commit: patch });
    const head = await ledger.head();
    expect(await ledger.rollback({ commit: patch })).toEqual({ status: 'noop', reverted: [patch] });
    expect(await ledger.head()).toBe(head);
    if (first.status !== 'reverted') throw new Error('expected a revert');
    await ledger.rollback({ commit: first.commit });
    expect(read('skills/a/SKILL.md')).toBe('a2\n');
    expectHealthy();
  });

  it('brings back every file of a folder a commit moved', async () => {
    const files = ['SKILL.md', 'references/r.md', 'scripts/s.sh', 'assets/deep/img.txt'];
    await mutate(
      'write-file',
      'a',
      files.slice(1).map((f) => ({ path: `skills/a/${f}`, content: `${f}\n` })),
    );
    const before = git(dir, 'ls-tree', '-r', 'HEAD');
    const moved = await Promise.all(files.map(async (f) => ({ f, content: Buffer.from((await ledger.readFile(`skills/a/${f}`))!) })));
    const archive = await mutate('archive', 'a', [
      ...moved.map(({ f }) => ({ path: `skills/a/${f}`, content: null })),
      ...moved.map(({ f, content }) => ({ path: `skills/.archive/a/${f}`, content })),
    ]);
    expect(existsSync(join(dir, 'skills/a'))).toBe(false);
    await ledger.rollback({ commit: archive });
    expect(git(dir, 'ls-tree', '-r', 'HEAD')).toBe(before);
    expect(existsSync(join(dir, 'skills/.archive'))).toBe(false);
    expectHealthy();
  });

  it('reverts a whole curator run as one commit, all or nothing', async () => {
    await ledger.tag('skillgarden/run/r1');
    const c1 = await mutate('mark-stale', 'a', [{ path: '.skillgarden/state.json', content: '{"a":"stale"}\n' }], 'r1');
    await mutate('create', 'user-skill', [{ path: 'skills/u/SKILL.md', content: 'u\n' }]);
    const c2 = await mutate(
      'archive',
      'a',
      [
        { path: 'skills/a/SKILL.md', content: null },
        { path: 'skills/.archive/a/SKILL.md', content: 'a1\n' },
      ],
      'r1',
    );
    const c3 = await mutate('mark-stale', 'b', [{ path: '.skillgarden/state.json', content: '{"a":"stale","b":"stale"}\n' }], 'r1');
    const count = Number(git(dir, 'rev-list', '--count', 'HEAD'));
    const result = await ledger.rollback({ run: 'r1' });
    expect(result).toMatchObject({ status: 'reverted', reverted: [c1, c2, c3] });
    expect(Number(git(dir, 'rev-list', '--count', 'HEAD'))).toBe(count + 1);
    expect(read('skills/a/SKILL.md')).toBe('a1\n');
    expect(read('.skillgarden/state.json')).toBeUndefined();
    expect(read('skills/u/SKILL.md')).toBe('u\n');
    expect(git(dir, 'log', '-1', '--format=%(trailers:key=Reverts,valueonly)').trim().split('\n')).toEqual([c1, c2, c3]);
    expect(await ledger.rollback({ run: 'r1' })).toMatchObject({ status: 'noop' });
    expectHealthy();
  });

  it('finds a run merged from its proposal branch by a merge commit (every parent is followed)', async () => {
    git(dir, 'switch', '-q', '-c', 'proposal');
    await ledger.tag('skillgarden/run/r3');
    const c1 = await mutate('mark-stale', 'a', [{ path: '.skillgarden/state.json', content: '{"a":"stale"}\n' }], 'r3');
    const c2 = await mutate(
      'archive',
      'a',
      [
        { path: 'skills/a/SKILL.md', content: null },
        { path: 'skills/.archive/a/SKILL.md', content: 'a1\n' },
      ],
      'r3',
    );
    git(dir, 'switch', '-q', 'main');
    await mutate('create', 'u', [{ path: 'skills/u/SKILL.md', content: 'u\n' }]);
    git(dir, 'merge', '-q', '--no-ff', '-m', 'Merge pull request #7 from proposal', 'proposal');
    expect(git(dir, 'rev-list', '--first-parent', 'HEAD').split('\n')).not.toContain(c1);
    const result = await ledger.rollback({ run: 'r3' });
    expect(result).toMatchObject({ status: 'reverted', reverted: [c1, c2] });
    expect(read('skills/a/SKILL.md')).toBe('a1\n');
    expect(read('skills/.archive/a/SKILL.md')).toBeUndefined();
    expect(read('.skillgarden/state.json')).toBeUndefined();
    expect(read('skills/u/SKILL.md')).toBe('u\n');
    expectHealthy();
  });

  it('restores a deleted symbolic link as a link, and deletes it again when that is rolled back', async () => {
    symlinkSync('SKILL.md', join(dir, 'skills/a/alias.md'));
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'a link');
    const removed = await mutate('remove-file', 'a', [{ path: 'skills/a/alias.md', content: null }]);
    expect(existsSync(join(dir, 'skills/a/alias.md'))).toBe(false);
    const restored = await ledger.rollback({ commit: removed });
    expect(lstatSync(join(dir, 'skills/a/alias.md')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, 'skills/a/alias.md'))).toBe('SKILL.md');
    expect(git(dir, 'ls-tree', 'HEAD', 'skills/a/alias.md')).toMatch(/^120000 blob /);
    expectHealthy();
    await ledger.rollback({ commit: (restored as { commit: string }).commit });
    expect(existsSync(join(dir, 'skills/a/alias.md'))).toBe(false);
    expectHealthy();
  });

  it('refuses a run when any of its files changed since, writing nothing', async () => {
    await mutate(
      'patch',
      'a',
      [
        { path: 'skills/a/SKILL.md', content: 'run\n' },
        { path: 'skills/a/n.md', content: 'n\n' },
      ],
      'r2',
    );
    await mutate('patch', 'a', [{ path: 'skills/a/n.md', content: 'person\n' }]);
    const head = await ledger.head();
    const data = await rejectsWith(ledger.rollback({ run: 'r2' }), 'ledger/rollback-refused');
    expect(data).toMatchObject({ reason: 'changed-since', paths: ['skills/a/n.md'] });
    expect(await ledger.head()).toBe(head);
    await rejectsWith(ledger.rollback({ run: 'no-such-run' }), 'ledger/unknown-run');
  });

  it('never touches paths outside the skills root and .skillgarden/', async () => {
    const id = await mutate('edit', 'a', [
      { path: 'skills/a/SKILL.md', content: 'a2\n' },
      { path: 'README.md', content: 'r\n' },
    ]);
    const data = await rejectsWith(ledger.rollback({ commit: id }), 'ledger/rollback-refused');
    expect(data).toMatchObject({ reason: 'outside-skills-root', paths: ['README.md'] });
    expect(read('skills/a/SKILL.md')).toBe('a2\n');
    const custom = await mutate('create', 'c', [{ path: 'library/c/SKILL.md', content: 'c\n' }]);
    expect(await ledger.rollback({ commit: custom }, { skillsRoot: 'library' })).toMatchObject({ status: 'reverted' });
  });
});
