import { createHash, randomBytes } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { lstat, mkdir, open, readFile, readlink, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';

/** Git's blob id for `content` (the SHA-1 of `blob <size>\0<content>`). */
export function hashBlob(content: Uint8Array): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

export type WorktreeFile =
  | { kind: 'absent' }
  | { kind: 'file'; oid: string; executable: boolean }
  | { kind: 'symlink'; oid: string }
  | { kind: 'directory' };

/** What the working tree holds at `path`, hashed as git would (no filters). */
export async function readWorktreeFile(dir: string, path: string): Promise<WorktreeFile> {
  const full = join(dir, path);
  const info = await lstat(full).catch(() => undefined);
  if (info === undefined) return { kind: 'absent' };
  if (info.isDirectory()) return { kind: 'directory' };
  if (info.isSymbolicLink()) return { kind: 'symlink', oid: hashBlob(Buffer.from(await readlink(full), 'utf8')) };
  return { kind: 'file', oid: hashBlob(await readFile(full)), executable: (info.mode & 0o100) !== 0 };
}

/**
 * Temp file in the same folder, then a rename: a reader sees the old file or
 * the new one. Not fsynced, as git does not fsync checkouts: the content is
 * safe in the commit, and `git restore` rebuilds the file after a power cut.
 */
export async function writeWorktreeFile(dir: string, path: string, content: Uint8Array, executable: boolean): Promise<BigIntStats> {
  const full = join(dir, path);
  await mkdir(dirname(full), { recursive: true });
  const temp = join(dirname(full), `.${basename(full)}.skillgarden-${process.pid}-${randomBytes(4).toString('hex')}`);
  const handle = await open(temp, 'wx', executable ? 0o755 : 0o644);
  try {
    await handle.writeFile(content);
    await handle.chmod(executable ? 0o755 : 0o644);
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, full);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return lstat(full, { bigint: true });
}

/** Removes the file, then every folder it leaves empty (git does not track folders). */
export async function removeWorktreeFile(dir: string, path: string): Promise<void> {
  await rm(join(dir, path), { force: true });
  const parts = path.split('/').slice(0, -1);
  while (parts.length > 0) {
    try {
      await rmdir(join(dir, ...parts));
    } catch {
      return;
    }
    parts.pop();
  }
}
