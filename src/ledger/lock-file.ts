import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { inFolder, readOnlyError } from './fs-sync.js';
import { SkillgardenError } from '../core/errors.js';

export interface LockOptions {
  /** How long to keep retrying a held lock before reporting it (ms). */
  timeoutMs: number;
  /**
   * A folder for ownership markers (`lockOwnerDir`): the lock is made as a hard link of a marker
   * named for this process, so whoever finds the lock after a crash can tell it is ours.
   */
  ownerDir?: string;
}

/** Where a process keeps the markers of the locks it holds: `<commondir>/skillgarden/locks`. */
export function lockOwnerDir(commondir: string): string {
  return join(commondir, 'skillgarden', 'locks');
}

/** A marker's name: `<pid>@<host>@<random>` (the host percent-encoded). */
export function parseLockMarker(name: string): { pid: number; host: string } | undefined {
  const match = /^(\d+)@([^@]+)@[0-9a-f]{8}$/.exec(name);
  return match ? { pid: Number(match[1]), host: decodeURIComponent(match[2]!) } : undefined;
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
  const marker = options.ownerDir === undefined ? undefined : createMarker(options.ownerDir, lockPath);
  let fd = marker?.fd;
  for (let attempt = 0; ; attempt += 1) {
    try {
      if (marker && fd !== undefined) {
        // The lock is born as a second name of our marker: there is no moment at which a lock of ours
        // exists that nothing names as ours (a journal written after the lock left one such moment).
        inFolder(lockPath, () => linkSync(marker.path, lockPath));
        return heldLock(target, lockPath, fd, marker.path);
      }
      return heldLock(
        target,
        lockPath,
        inFolder(lockPath, () => openSync(lockPath, 'wx')),
      );
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (
        marker &&
        fd !== undefined &&
        code !== 'EEXIST' &&
        (code === 'EXDEV' || code === 'EPERM' || code === 'ENOTSUP' || code === 'EMLINK')
      ) {
        // No hard links here (some network and FUSE file systems): a plain lock, as git makes it.
        closeSync(fd);
        rmSync(marker.path, { force: true });
        fd = undefined;
        continue;
      }
      const readOnly = readOnlyError(error, lockPath);
      if (readOnly) {
        dropMarker(marker, fd);
        throw readOnly;
      }
      if (code !== 'EEXIST') {
        dropMarker(marker, fd);
        throw error;
      }
      if (Date.now() - started >= options.timeoutMs) {
        dropMarker(marker, fd);
        throw lockedError(lockPath, options.timeoutMs);
      }
      await sleep(backoffMs(attempt));
    }
  }
}

function createMarker(ownerDir: string, lockPath: string): { path: string; fd: number } {
  const path = join(ownerDir, `${process.pid}@${encodeURIComponent(hostname())}@${randomBytes(4).toString('hex')}`);
  try {
    return { path, fd: inFolder(path, () => openSync(path, 'wx')) };
  } catch (error) {
    throw readOnlyError(error, lockPath) ?? error;
  }
}

function dropMarker(marker: { path: string } | undefined, fd: number | undefined): void {
  if (!marker || fd === undefined) return;
  closeSync(fd);
  rmSync(marker.path, { force: true });
}

function heldLock(target: string, lockPath: string, fd: number, marker?: string): HeldLock {
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
      if (marker) rmSync(marker, { force: true });
    },
    async release() {
      if (!held) return;
      held = false;
      close();
      rmSync(lockPath, { force: true });
      if (marker) rmSync(marker, { force: true });
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
    `${lockPath} has been held for more than ${timeoutMs} ms. Another git process may be running; if none is, the lock was left by a crashed process: run \`skillgarden doctor\` (it names what a crashed skillgarden left, and \`--fix\` removes it), or remove ${lockPath} if no git is running, and retry.`,
    { data: { path: lockPath } },
  );
}
