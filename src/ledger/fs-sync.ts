import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { SkillgardenError } from '../core/errors.js';

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

/** The errno codes of a file git's folder will not take: no permission, a read-only mount, an immutable folder (root's EPERM). */
const readOnlyCodes = new Set(['EACCES', 'EROFS', 'EPERM']);

/** `ledger/read-only` for a write the git folder refused; `undefined` for any other error. */
export function readOnlyError(error: unknown, path = (error as NodeJS.ErrnoException).path ?? ''): SkillgardenError | undefined {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (!readOnlyCodes.has(code)) return undefined;
  return new SkillgardenError(
    'ledger/read-only',
    `Cannot write ${path} (${code}): the repository's git folder is read-only for this user (permissions, a read-only mount, or an immutable flag). Nothing was committed. Run as a user who may write to it, or make it writable, and retry.`,
    { data: { path, errno: code }, cause: error },
  );
}
