import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Where skillgarden keeps what it can rebuild (the registry index, the
 * history index, the scan cache): inside the git folder, so nothing shows in
 * `git status`, a clone never carries it, and deleting it only costs speed.
 */
export function cacheFilePath(gitdir: string, name: string): string {
  return join(gitdir, 'skillgarden', name);
}

/** git's blob id: sha-1 of `blob <length>\0` and the bytes. */
export function blobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** The parsed file, or undefined when it is missing or not JSON: the caller starts cold. */
export function readCacheFile(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Temp file, then rename: a reader sees the old file or the new one, never
 * half of one. A cache that cannot be written (a read-only checkout) only
 * costs the next run its speed, so a failure is swallowed.
 */
export function writeCacheFile(file: string, value: unknown): void {
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temp, JSON.stringify(value));
    renameSync(temp, file);
  } catch {
    rmSync(temp, { force: true });
  }
}
