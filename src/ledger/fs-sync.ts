import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/*
 * The commit path calls the file system synchronously. A commit makes about
 * a hundred small calls (object files, locks, index, reflogs, the working
 * tree), each a few microseconds of kernel work; sent through libuv's thread
 * pool, every one also paid for two thread hand-offs, and the commit took
 * 1.5–2× as long (measured with bench/ledger-commit.ts). A commit blocks the
 * event loop for a few milliseconds, as `git commit` blocks its caller.
 */

/**
 * Runs `create`, which makes the file at `path`; if its folder is missing,
 * creates the folder and runs it again. Creating the folder only when needed
 * saves two calls per file on the common path.
 */
export function inFolder<T>(path: string, create: () => T): T {
  try {
    return create();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dirname(path), { recursive: true });
    return create();
  }
}
