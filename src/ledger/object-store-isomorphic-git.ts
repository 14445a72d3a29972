import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { SkillgardenError } from '../core/errors.js';
import { readLooseObject } from './loose-objects.js';
import type { GitObject } from './loose-objects.js';
import { buildObjectStore } from './native-object-store.js';
import type { ObjectStore } from './object-store.js';

/**
 * The embedded backend: needs no git binary. Loose objects are read and
 * written directly (node's zlib, atomic renames: isomorphic-git writes
 * objects in place, so another process could read half of one); packed
 * objects are read through isomorphic-git, which understands packfiles.
 */
export function openIsomorphicGitStore(gitdir: string, durable = false): ObjectStore {
  const cache = {};
  return buildObjectStore(
    gitdir,
    async (oid) => (await readLooseObject(gitdir, oid)) ?? (await readPacked(gitdir, oid, cache)),
    async () => undefined,
    durable,
  );
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
