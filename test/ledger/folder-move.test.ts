import { chmodSync, existsSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSkillgardenError } from '../../src/core/errors.js';
import type { FileChange, LedgerBackend } from '../../src/ledger/ledger.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { findFolderMove } from '../../src/ledger/rollback-plan.js';
import { git, repoWith, status } from '../helpers/repo.js';
import { skillText } from '../helpers/tmp.js';

/** A skill of many files in nested folders, an executable script and a link among them. */
function bigSkill(): Record<string, string> {
  const files: Record<string, string> = { 'skills/big/SKILL.md': skillText('big'), 'skills/small/SKILL.md': skillText('small') };
  for (let i = 0; i < 120; i++) files[`skills/big/references/part-${i % 3}/group-${i % 7}/note-${i}.md`] = `note ${i}\n`;
  files['skills/big/scripts/run.sh'] = '#!/bin/sh\necho run\n';
  return files;
}

function library(): string {
  const dir = repoWith(bigSkill());
  chmodSync(join(dir, 'skills/big/scripts/run.sh'), 0o755);
  symlinkSync('../SKILL.md', join(dir, 'skills/big/scripts/link.md'));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'an executable and a link');
  return dir;
}

const author = { name: 'Ada Test', email: 'ada@example.com', timestamp: 1_780_000_000 };
const message = 'skill(archive): big\n\nSkill-Action: archive\nSkill-Name: big\nSkill-Actor: user\n';

/** The plain way: every file deleted at its old place and written at the new one. */
async function plainMove(dir: string, backend: LedgerBackend, from: string, to: string): Promise<string> {
  const ledger = await openLedger(dir, { backend });
  const changes: FileChange[] = [];
  for (const file of await ledger.listFiles(from)) {
    const content = (await ledger.readFile(file.path))!;
    const path = `${to}${file.path.slice(from.length)}`;
    changes.push(
      { path: file.path, content: null },
      { path, content, executable: file.mode === '100755', symlink: file.mode === '120000' },
    );
  }
  const { commit } = await ledger.commit({ message, changes, author });
  await ledger.close();
  return commit;
}

const tree = (dir: string, rev = 'HEAD') => git(dir, 'rev-parse', `${rev}^{tree}`).trim();
const index = (dir: string) => git(dir, 'ls-files', '-s');

describe.each(['system-git', 'isomorphic-git'] as const)('a folder moved as a tree (%s)', (backend) => {
  it('gives the commit, index and working tree the plain file-by-file move gives; rollback moves it back the same way', async () => {
    const fast = library();
    const plain = library();
    const ledger = await openLedger(fast, { backend });
    const { commit } = await ledger.commit({
      message,
      changes: [{ path: 'skills/.archive/big', content: null, from: 'skills/big' }],
      author,
    });
    await plainMove(plain, backend, 'skills/big', 'skills/.archive/big');
    expect(tree(fast)).toBe(tree(plain));
    expect(index(fast)).toBe(index(plain));
    expect(status(fast)).toBe('');
    expect(existsSync(join(fast, 'skills/big'))).toBe(false);
    expect(readFileSync(join(fast, 'skills/.archive/big/scripts/link.md'), 'utf8')).toContain('name: big');
    // Stat data kept: git finds nothing to refresh.
    expect(git(fast, 'diff-files', '--name-only')).toBe('');

    // Only a rename of the folder takes an untracked file along: how the rollback is seen to move the folder back whole.
    writeFileSync(join(fast, 'skills/.archive/big/scratch.txt'), 'mine\n');
    const back = await ledger.rollback({ commit }, { author });
    expect(back.status).toBe('reverted');
    expect(tree(fast)).toBe(tree(fast, `${commit}^`));
    expect(git(fast, 'show', '--name-status', '--format=', 'HEAD').trim().split('\n')).toHaveLength(123);
    expect(status(fast)).toBe('?? skills/big/scratch.txt\n');
    expect(git(fast, 'diff-files', '--name-only')).toBe('');
    await ledger.close();
    git(fast, 'fsck', '--strict', '--no-progress');
  });

  it('takes untracked files along, as git mv does, and refuses an uncommitted edit, moving nothing', async () => {
    const dir = library();
    writeFileSync(join(dir, 'skills/big/scratch.txt'), 'mine\n');
    writeFileSync(join(dir, 'skills/big/references/part-0/group-0/note-0.md'), 'edited\n');
    const ledger = await openLedger(dir, { backend });
    const head = git(dir, 'rev-parse', 'HEAD');
    const error = await ledger
      .commit({ message, changes: [{ path: 'skills/.archive/big', content: null, from: 'skills/big' }], author })
      .catch((e: unknown) => e);
    expect(isSkillgardenError(error, 'ledger/dirty')).toBe(true);
    expect((error as Error).message).toContain('skills/big/references/part-0/group-0/note-0.md');
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(head);
    expect(existsSync(join(dir, 'skills/big/SKILL.md'))).toBe(true);

    git(dir, 'checkout', '--', 'skills/big');
    await ledger.commit({ message, changes: [{ path: 'skills/.archive/big', content: null, from: 'skills/big' }], author });
    expect(readFileSync(join(dir, 'skills/.archive/big/scratch.txt'), 'utf8')).toBe('mine\n');
    expect(status(dir)).toBe('?? skills/.archive/big/scratch.txt\n');
    await ledger.close();
  });

  it('hashes a file whose stat data changed (git diff-files names it with the system git) and moves it when its bytes did not', async () => {
    const dir = library();
    const file = join(dir, 'skills/big/references/part-1/group-1/note-1.md');
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    const ledger = await openLedger(dir, { backend });
    await ledger.commit({ message, changes: [{ path: 'skills/.archive/big', content: null, from: 'skills/big' }], author });
    expect(status(dir)).toBe('');
    // The same touch with other bytes of the same size is uncommitted work: refused.
    const other = join(dir, 'skills/.archive/big/references/part-1/group-1/note-1.md');
    writeFileSync(other, readFileSync(other, 'utf8').replace('1', '9'));
    const error = await ledger
      .commit({ message, changes: [{ path: 'skills/big', content: null, from: 'skills/.archive/big' }], author })
      .catch((e: unknown) => e);
    expect(isSkillgardenError(error, 'ledger/dirty')).toBe(true);
    expect((error as Error).message).toContain('skills/.archive/big/references/part-1/group-1/note-1.md');
    await ledger.close();
  });

  it('refuses a move onto an existing folder and a move of a missing one, writing nothing', async () => {
    const dir = library();
    const ledger = await openLedger(dir, { backend });
    const head = git(dir, 'rev-parse', 'HEAD');
    for (const change of [
      { path: 'skills/small', content: null, from: 'skills/big' },
      { path: 'skills/.archive/ghost', content: null, from: 'skills/ghost' },
      { path: 'skills/big/inner', content: null, from: 'skills/big' },
    ]) {
      const error = await ledger.commit({ message, changes: [change], author }).catch((e: unknown) => e);
      expect(isSkillgardenError(error, 'ledger/bad-path'), change.path).toBe(true);
    }
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(head);
    expect(status(dir)).toBe('');
    await ledger.close();
  });
});

describe('findFolderMove', () => {
  const blob = (oid: string, mode = '100644') => ({ oid: oid.repeat(40), mode });
  it('pairs the files a revert deletes under one folder with the same files it restores under another', () => {
    const move = findFolderMove([
      { path: 'skills/.archive/x/SKILL.md', before: null, after: blob('a') },
      { path: 'skills/.archive/x/refs/b.md', before: null, after: blob('b') },
      { path: 'skills/x/SKILL.md', before: blob('a'), after: null },
      { path: 'skills/x/refs/b.md', before: blob('b'), after: null },
      { path: '.skillgarden/state.json', before: blob('c'), after: blob('d') },
    ]);
    expect(move && { from: move.from, to: move.to, paths: move.paths.size }).toEqual({
      from: 'skills/.archive/x',
      to: 'skills/x',
      paths: 4,
    });
  });

  it('finds none when a file differs, is missing, or changes mode', () => {
    const base = [
      { path: 'a/x/SKILL.md', before: null, after: blob('a') },
      { path: 'b/x/SKILL.md', before: blob('a'), after: null },
    ];
    expect(findFolderMove(base)).toBeDefined();
    expect(findFolderMove([base[0]!, { ...base[1]!, before: blob('e') }])).toBeUndefined();
    expect(findFolderMove([base[0]!, { ...base[1]!, before: blob('a', '100755') }])).toBeUndefined();
    expect(findFolderMove([base[0]!])).toBeUndefined();
    expect(findFolderMove([...base, { path: 'a/x/extra.md', before: null, after: blob('f') }])).toBeUndefined();
  });
});
