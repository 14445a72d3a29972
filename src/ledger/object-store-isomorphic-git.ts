import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { SkillgardenError } from '../core/errors.js';
import { parseCommitObject, parseTreeObject } from './git-object-format.js';
import { readLooseObject, serializeCommit, serializeTree, writeLooseObject } from './loose-objects.js';
import type { GitObject } from './loose-objects.js';
import type { ObjectStore } from './object-store.js';

/**
 * The embedded backend: needs no git binary. Loose objects are read and
 * written directly (node's zlib, atomic renames: isomorphic-git writes
 * objects in place, so another process could read half of one); packed
 * objects are read through isomorphic-git, which understands packfiles.
 */
export function openIsomorphicGitStore(gitdir: string): ObjectStore {
  const cache = {};
  const read = async (oid: string, type: string): Promise<Buffer> => {
    const object = (await readLooseObject(gitdir, oid)) ?? (await readPacked(gitdir, oid, cache));
    if (object.type !== type) {
      throw new SkillgardenError('ledger/missing-object', `Git object ${oid} is a ${object.type}, not a ${type}.`, { data: { oid } });
    }
    return object.content;
  };
  return {
    readTree: async (oid) => parseTreeObject(await read(oid, 'tree')),
    readBlob: (oid) => read(oid, 'blob'),
    readCommit: async (oid) => parseCommitObject(oid, await read(oid, 'commit')),
    writeBlob: (content) => writeLooseObject(gitdir, 'blob', content),
    writeTree: (entries) => writeLooseObject(gitdir, 'tree', serializeTree(entries)),
    writeCommit: (commit) => writeLooseObject(gitdir, 'commit', serializeCommit(commit)),
    close: async () => undefined,
  };
}

async function readPacked(gitdir: string, oid: string, cache: object): Promise<GitObject> {
  try {
    const { type, object } = await git.readObject({ fs, gitdir, oid, format: 'content', cache });
    return { type, content: Buffer.from(object as Uint8Array) };
  } catch (error) {
    throw new SkillgardenError('ledger/missing-object', `Git object ${oid} cannot be read: ${(error as Error).message}`, {
      data: { oid },
      cause: error,
    });
  }
}
