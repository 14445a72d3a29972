import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './files.js';

/**
 * Where skillgarden keeps what it can rebuild (the registry index, the
 * history index, the scan cache): inside the git folder, so nothing shows in
 * `git status`, a clone never carries it, and deleting it only costs speed.
 */
export function cacheFilePath(gitdir: string, name: string): string {
  return join(gitdir, 'skillgarden', name);
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
  writeCacheText(file, JSON.stringify(value));
}

/** As `writeCacheFile`, for text already made. */
export function writeCacheText(file: string, text: string): void {
  try {
    writeFileAtomic(file, text);
  } catch {
    // Only speed is lost (see above).
  }
}
