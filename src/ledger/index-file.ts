import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { SkillgardenError } from '../core/errors.js';
import { join } from 'node:path';
import { parseIndex, serializeIndex } from './git-index.js';
import type { GitIndex } from './git-index.js';
import type { HeldLock } from './lock-file.js';

/**
 * The parsed index, kept while the file is unchanged, so a commit need not
 * re-parse 20,000 entries. "Unchanged" is judged by the SHA-1 trailer that
 * ends every index file: mtimes here tick every few milliseconds and inodes
 * are reused, so a stat key once served a stale index (caught by the
 * concurrency test).
 */
export interface IndexCache {
  key?: string;
  index?: GitIndex;
}

/** Synchronous file calls: see fs-sync.ts. */
function checksumKey(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const { size } = fstatSync(fd);
    if (size < 32) return undefined;
    const tail = Buffer.alloc(20);
    readSync(fd, tail, 0, 20, size - 20);
    return `${size}:${tail.toString('hex')}`;
  } finally {
    closeSync(fd);
  }
}

function readIndexBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
    throw error;
  }
}

export async function readIndexFile(gitdir: string, cache: IndexCache): Promise<GitIndex> {
  const path = join(gitdir, 'index');
  const key = checksumKey(path);
  if (key !== undefined && key === cache.key && cache.index) return cache.index;
  const buffer = readIndexBytes(path);
  const index = parseIndex(buffer, path);
  // Keyed by what the parsed bytes end with, not by the earlier look: the
  // file may have been replaced in between.
  Object.assign(cache, { key: buffer.length >= 32 ? `${buffer.length}:${buffer.toString('hex', buffer.length - 20)}` : undefined, index });
  return index;
}

/**
 * Writes the index through its held lock and remembers what was written.
 * Fsynced only when `core.fsync` names the index, as git does: by default
 * it is a cache that `git reset` rebuilds from HEAD, and the fsync cost a
 * tenth of a commit.
 */
export async function writeIndexFile(gitdir: string, lock: HeldLock, index: GitIndex, cache: IndexCache, durable = false): Promise<void> {
  const bytes = serializeIndex(index);
  await lock.commit(bytes, { durable });
  Object.assign(cache, { key: `${bytes.length}:${bytes.toString('hex', bytes.length - 20)}`, index });
}

/**
 * With commits but no index file (a `--no-checkout` clone, a deleted index),
 * writing an index of only our paths would stage the deletion of every other
 * file: refuse instead.
 */
export async function checkIndexPresent(gitdir: string, index: GitIndex, hasCommits: boolean): Promise<void> {
  if (!hasCommits || index.entries.length > 0) return;
  const path = join(gitdir, 'index');
  if (existsSync(path)) return;
  throw new SkillgardenError(
    'ledger/no-index',
    `${path} is missing although the branch has commits. Run \`git reset\` to rebuild it from HEAD, then retry.`,
    {
      data: { path },
    },
  );
}
