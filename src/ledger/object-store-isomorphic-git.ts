import * as fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import git from 'isomorphic-git';
import type { CommitObject } from 'isomorphic-git';
import { SkillgardenError } from '../core/errors.js';
import type { CommitInfo } from './ledger.js';
import type { NewCommit, ObjectStore, TreeEntry } from './object-store.js';
import { normalizeMessage, sortTreeEntries } from './object-store.js';

/**
 * isomorphic-git writes loose objects in place; a reader in another process
 * (or a crash) could then see half an object. This fs writes through a temp
 * file and a rename, as git does.
 */
const atomicFs = {
  promises: {
    ...fs.promises,
    async writeFile(path: string, data: Uint8Array | string, options?: fs.WriteFileOptions) {
      const temp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
      await fs.promises.writeFile(temp, data, options);
      await fs.promises.rename(temp, path);
    },
  },
};

export function openIsomorphicGitStore(gitdir: string): ObjectStore {
  const cache = {};
  const base = { fs: atomicFs, gitdir, cache };
  return {
    async readTree(oid) {
      const { tree } = await wrap(oid, () => git.readTree({ ...base, oid }));
      return tree.map((entry) => ({ mode: entry.mode, name: entry.path, oid: entry.oid }));
    },
    async readBlob(oid) {
      return (await wrap(oid, () => git.readBlob({ ...base, oid }))).blob;
    },
    async readCommit(oid) {
      const { commit } = await wrap(oid, () => git.readCommit({ ...base, oid }));
      return toCommitInfo(oid, commit);
    },
    writeBlob: (blob) => git.writeBlob({ fs: atomicFs, gitdir, blob }),
    writeTree: (entries: readonly TreeEntry[]) =>
      git.writeTree({
        fs: atomicFs,
        gitdir,
        tree: sortTreeEntries(entries).map((e) => ({ mode: e.mode, path: e.name, oid: e.oid, type: e.mode === '040000' ? 'tree' : e.mode === '160000' ? 'commit' : 'blob' })),
      }),
    writeCommit: (commit: NewCommit) =>
      git.writeCommit({
        fs: atomicFs,
        gitdir,
        commit: { tree: commit.tree, parent: commit.parents, message: normalizeMessage(commit.message), author: commit.author, committer: commit.author },
      }),
    close: async () => undefined,
  };
}

function toCommitInfo(oid: string, commit: CommitObject): CommitInfo {
  return { oid, tree: commit.tree, parents: commit.parent, message: commit.message, author: commit.author };
}

async function wrap<T>(oid: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw new SkillgardenError('ledger/missing-object', `Git object ${oid} cannot be read: ${(error as Error).message}`, {
      data: { oid },
      cause: error,
    });
  }
}
