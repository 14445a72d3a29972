import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** git's blob id (what `git hash-object` prints): sha-1 of `blob <length>\0` and the bytes. */
export function blobId(content: Uint8Array | string): string {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  return createHash('sha1').update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');
}

export interface WriteAtomicOptions {
  /** fsync the file before the rename, so a crash after it leaves the new content, not an empty file (default false). */
  durable?: boolean;
}

/**
 * Writes a file whole or not at all: a temporary file beside it (so the rename stays on one file system), then a
 * rename over it, so a reader sees the old file or the new one, never half of one. The folder is made when missing;
 * the temporary file is removed when anything fails, and the error is thrown.
 */
export function writeFileAtomic(path: string, content: Uint8Array | string, options: WriteAtomicOptions = {}): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const fd = openSync(temp, 'wx');
    try {
      writeFileSync(fd, content);
      if (options.durable === true) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Replaces whole folders under `out` with the given files: everything is written under a staging folder inside
 * `out` first, then each of `tops` is swapped in by a rename. A failure while staging leaves the old folders whole;
 * the staging folder is removed in every case. Returns the paths written, sorted.
 */
export function replaceFolders(out: string, files: ReadonlyMap<string, Uint8Array | string>, tops: readonly string[]): string[] {
  const stage = join(out, `.skillgarden-stage-${process.pid}`);
  rmSync(stage, { recursive: true, force: true });
  try {
    for (const [path, content] of files) {
      const target = join(stage, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content);
    }
    for (const top of tops) {
      const target = join(out, top);
      mkdirSync(dirname(target), { recursive: true });
      rmSync(target, { recursive: true, force: true });
      renameSync(join(stage, top), target);
    }
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  return [...files.keys()].sort();
}
