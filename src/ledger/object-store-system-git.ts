import { SkillgardenError } from '../core/errors.js';
import { CatFileBatch } from './cat-file-batch.js';
import { parseCommitObject, parseTreeObject } from './git-object-format.js';
import type { NewCommit, ObjectStore, TreeEntry } from './object-store.js';
import { formatTimezone, normalizeMessage, sortTreeEntries } from './object-store.js';
import { runGit } from './run-git.js';

/** Objects through the git on the PATH: reads over one `cat-file --batch` pipe, writes with git's own plumbing. */
export function openSystemGitStore(gitdir: string): ObjectStore {
  const batch = new CatFileBatch(gitdir);
  const read = async (oid: string, type: string) => {
    const object = await batch.read(oid);
    if (object.type !== type) {
      throw new SkillgardenError('ledger/missing-object', `Git object ${oid} is a ${object.type}, not a ${type}.`, { data: { oid } });
    }
    return object.content;
  };
  return {
    readTree: async (oid) => parseTreeObject(await read(oid, 'tree')),
    readBlob: (oid) => read(oid, 'blob'),
    readCommit: async (oid) => parseCommitObject(oid, await read(oid, 'commit')),
    writeBlob: async (content) => (await runGit(gitdir, ['hash-object', '-w', '-t', 'blob', '--stdin'], { input: content })).toString().trim(),
    writeTree: async (entries: readonly TreeEntry[]) => {
      const input = sortTreeEntries(entries)
        .map((e) => `${e.mode} ${e.mode === '040000' ? 'tree' : e.mode === '160000' ? 'commit' : 'blob'} ${e.oid}\t${e.name}\0`)
        .join('');
      return (await runGit(gitdir, ['mktree', '-z', '--missing'], { input })).toString().trim();
    },
    writeCommit: async (commit: NewCommit) => {
      const { name, email, timestamp, timezoneOffset } = commit.author;
      const date = `@${timestamp} ${formatTimezone(timezoneOffset)}`;
      const env = {
        GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email, GIT_COMMITTER_DATE: date,
      };
      const args = ['commit-tree', commit.tree, ...commit.parents.flatMap((parent) => ['-p', parent])];
      return (await runGit(gitdir, args, { input: normalizeMessage(commit.message), env })).toString().trim();
    },
    close: () => batch.close(),
  };
}
