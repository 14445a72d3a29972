import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Ledger, LedgerBackend } from '../../src/ledger/ledger.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { fixedAuthor, git, makeRepo, rejectsWith } from './git-repo.js';

const backends: LedgerBackend[] = ['isomorphic-git', 'system-git'];

describe.each(backends)('commits onto branches that are not checked out (%s)', (backend) => {
  let dir: string;
  let cleanup: () => void;
  let ledger: Ledger;
  let base: string;

  beforeEach(async () => {
    ({ dir, cleanup } = makeRepo());
    ledger = await openLedger(dir, { backend, lockTimeoutMs: 150 });
    base = (await ledger.commit({ message: 'seed', changes: [{ path: 'skills/a/SKILL.md', content: 'a\n' }], author: fixedAuthor })).commit;
  });
  afterEach(async () => {
    await ledger.close();
    cleanup();
  });

  it('writes one commit on the branch and leaves the index, the working tree and HEAD as they were', async () => {
    writeFileSync(join(dir, 'skills/a/SKILL.md'), 'a person is editing\n');
    const indexBefore = statSync(join(dir, '.git/index')).mtimeMs;
    const result = await ledger.commitOnBranch({
      branch: 'skillgarden/staged/b',
      message: 'skill(create): b',
      changes: [{ path: 'skills/b/SKILL.md', content: 'b\n' }],
      author: fixedAuthor,
    });
    // Checked before `git status`, which refreshes the index itself.
    expect(statSync(join(dir, '.git/index')).mtimeMs).toBe(indexBefore);
    expect(result.previous).toBeUndefined();
    expect(git(dir, 'rev-parse', 'skillgarden/staged/b').trim()).toBe(result.commit);
    expect(git(dir, 'rev-parse', 'skillgarden/staged/b^').trim()).toBe(base);
    expect(git(dir, 'show', 'skillgarden/staged/b:skills/b/SKILL.md')).toBe('b\n');
    expect(git(dir, 'show', 'skillgarden/staged/b:skills/a/SKILL.md')).toBe('a\n');
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(base);
    expect(git(dir, 'status', '--porcelain').trim()).toBe('M skills/a/SKILL.md');
    expect(readFileSync(join(dir, 'skills/a/SKILL.md'), 'utf8')).toBe('a person is editing\n');
    expect(git(dir, 'reflog', 'show', '--format=%H', 'skillgarden/staged/b').trim()).toBe(result.commit);
    expect(() => git(dir, 'fsck', '--strict', '--no-progress')).not.toThrow();
  });

  it('replaces a branch from a new base, and refuses when the tip moved since the caller looked', async () => {
    const first = await ledger.commitOnBranch({ branch: 'skillgarden/lifecycle', message: 'one', changes: [{ path: 'x', content: '1' }] });
    const second = await ledger.commitOnBranch({
      branch: 'skillgarden/lifecycle',
      message: 'two',
      changes: [{ path: 'x', content: '2' }],
      expectedTip: first.commit,
    });
    expect(second.previous).toBe(first.commit);
    expect(git(dir, 'rev-list', '--count', `${base}..skillgarden/lifecycle`).trim()).toBe('1');
    await rejectsWith(
      ledger.commitOnBranch({
        branch: 'skillgarden/lifecycle',
        message: 'three',
        changes: [{ path: 'x', content: '3' }],
        expectedTip: null,
      }),
      'ledger/conflict',
    );
    expect(git(dir, 'rev-parse', 'skillgarden/lifecycle').trim()).toBe(second.commit);
  });

  it('refuses the checked-out branch and names that are not branch names', async () => {
    await rejectsWith(
      ledger.commitOnBranch({ branch: 'main', message: 'm', changes: [{ path: 'x', content: '1' }] }),
      'ledger/branch-checked-out',
    );
    await rejectsWith(
      ledger.commitOnBranch({ branch: 'bad..name', message: 'm', changes: [{ path: 'x', content: '1' }] }),
      'ledger/bad-ref-name',
    );
    await rejectsWith(ledger.deleteBranch('main'), 'ledger/branch-checked-out');
    git(dir, 'worktree', 'add', '-q', join(dir, '.git', 'wt-other'), '-b', 'skillgarden/new/other');
    await rejectsWith(
      ledger.commitOnBranch({ branch: 'skillgarden/new/other', message: 'm', changes: [{ path: 'x', content: '1' }] }),
      'ledger/branch-checked-out',
    );
  });

  it('lists and deletes loose and packed branches as git sees them', async () => {
    await ledger.commitOnBranch({ branch: 'skillgarden/new/one', message: 'one', changes: [{ path: 'x', content: '1' }] });
    git(dir, 'pack-refs', '--all');
    const two = await ledger.commitOnBranch({ branch: 'skillgarden/new/two', message: 'two', changes: [{ path: 'y', content: '2' }] });
    git(dir, 'branch', 'person/work');
    const listed = await ledger.listBranches('skillgarden/');
    expect(listed.map((b) => b.branch)).toEqual(['skillgarden/new/one', 'skillgarden/new/two']);
    expect(listed[1]?.commit).toBe(two.commit);
    expect(await ledger.deleteBranch('skillgarden/new/one')).toBe(true);
    expect(await ledger.deleteBranch('skillgarden/new/one')).toBe(false);
    expect(git(dir, 'branch', '--list', 'skillgarden/*', '--format=%(refname:short)').trim()).toBe('skillgarden/new/two');
    expect(() => git(dir, 'fsck', '--strict', '--no-progress')).not.toThrow();
  });
});
