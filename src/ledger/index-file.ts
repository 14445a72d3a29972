import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseIndex, serializeIndex } from './git-index.js';
import type { GitIndex } from './git-index.js';
import type { HeldLock } from './lock-file.js';

/**
 * The parsed index, kept while the file is unchanged. Git replaces the index
 * by renaming a new file over it, so a new inode, size or mtime means
 * someone wrote it; same ones mean we can skip re-parsing 20,000 entries.
 */
export interface IndexCache {
  key?: string;
  index?: GitIndex;
}

async function statKey(path: string): Promise<string | undefined> {
  const info = await stat(path, { bigint: true }).catch(() => undefined);
  return info && `${info.ino}:${info.size}:${info.mtimeNs}`;
}

export async function readIndexFile(gitdir: string, cache: IndexCache): Promise<GitIndex> {
  const path = join(gitdir, 'index');
  const key = await statKey(path);
  if (key !== undefined && key === cache.key && cache.index) return cache.index;
  const buffer = await readFile(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return Buffer.alloc(0);
    throw error;
  });
  const index = parseIndex(buffer, path);
  // Keyed by the stat taken before the read: if the file changed in between,
  // the next read sees a different key and parses again.
  Object.assign(cache, { key, index });
  return index;
}

/** Writes the index through its held lock and remembers what was written. */
export async function writeIndexFile(gitdir: string, lock: HeldLock, index: GitIndex, cache: IndexCache): Promise<void> {
  await lock.commit(serializeIndex(index));
  Object.assign(cache, { key: await statKey(join(gitdir, 'index')), index });
}
