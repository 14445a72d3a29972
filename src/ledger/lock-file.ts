import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { inFolder } from './fs-sync.js';
import { SkillgardenError } from '../core/errors.js';

export interface LockOptions {
  /** How long to keep retrying a held lock before reporting it (ms). */
  timeoutMs: number;
}

/**
 * Git's lock protocol: `<file>.lock` created with O_EXCL is the lock; the new
 * content is written into it, fsynced, and renamed over `<file>`, so readers
 * see the old or the new file, never half of one. The lock's folder is
 * created when missing (a branch's first ref). Synchronous file calls: see fs-sync.ts.
 */
export interface HeldLock {
  readonly path: string;
  /**
   * Writes `content` into the lock file and renames it over the target;
   * fsynced first unless `durable` is false.
   */
  commit(content: Uint8Array | string, options?: { durable?: boolean }): Promise<void>;
  /** Gives the lock up without changing the target. */
  release(): Promise<void>;
}

export async function acquireLock(target: string, options: LockOptions): Promise<HeldLock> {
  const lockPath = `${target}.lock`;
  const started = Date.now();
  for (let attempt = 0; ; attempt += 1) {
    try {
      const fd = inFolder(lockPath, () => openSync(lockPath, 'wx'));
      return heldLock(target, lockPath, fd);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EROFS' || code === 'EPERM') throw readOnlyError(lockPath, code, error);
      if (code !== 'EEXIST') throw error;
      if (Date.now() - started >= options.timeoutMs) throw lockedError(lockPath, options.timeoutMs);
      await sleep(backoffMs(attempt));
    }
  }
}

function heldLock(target: string, lockPath: string, fd: number): HeldLock {
  // Once renamed (or removed) the lock file may already be someone else's:
  // after that, release must not touch the path again.
  let held = true;
  let closed = false;
  const close = () => {
    if (!closed) closeSync(fd);
    closed = true;
  };
  return {
    path: lockPath,
    async commit(content, options) {
      try {
        writeFileSync(fd, content);
        if (options?.durable !== false) fsyncSync(fd);
      } finally {
        close();
      }
      held = false;
      renameSync(lockPath, target);
    },
    async release() {
      if (!held) return;
      held = false;
      close();
      rmSync(lockPath, { force: true });
    },
  };
}

/** Exponential backoff with jitter, so writers that collided do not collide again in step. */
export function backoffMs(attempt: number): number {
  const ceiling = Math.min(25, 2 ** Math.min(attempt, 5));
  return 1 + Math.random() * ceiling;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

function lockedError(lockPath: string, timeoutMs: number): SkillgardenError {
  // A lock left by a crashed process looks exactly like a busy one; only a
  // person can tell, so it is reported, never deleted.
  return new SkillgardenError(
    'ledger/locked',
    `${lockPath} has been held for more than ${timeoutMs} ms. Another git process may be running; if none is, the lock was left by a crashed process: remove ${lockPath} and retry.`,
    { data: { path: lockPath } },
  );
}

function readOnlyError(lockPath: string, code: string, cause: unknown): SkillgardenError {
  return new SkillgardenError(
    'ledger/read-only',
    `Cannot create ${lockPath} (${code}): the repository's git folder is read-only for this user. Nothing was written. Run as a user who may write to it, or make it writable, and retry.`,
    { data: { path: lockPath, errno: code }, cause },
  );
}
