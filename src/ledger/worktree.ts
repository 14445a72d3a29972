import { createHash, randomBytes } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import {
  closeSync,
  fchmodSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  rmdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { blobId } from '../store/files.js';
import { lstatIfAny } from '../store/fs-probe.js';
import { inFolder } from './fs-sync.js';
import type { FileMode } from './ledger.js';

export type WorktreeFile =
  { kind: 'absent' } | { kind: 'file'; oid: string; executable: boolean } | { kind: 'symlink'; oid: string } | { kind: 'directory' };

/**
 * What the working tree holds at `path`, hashed as git would (no filters).
 * Synchronous file calls here and below: see fs-sync.ts.
 */
export async function readWorktreeFile(dir: string, path: string): Promise<WorktreeFile> {
  const full = join(dir, path);
  const info = lstatIfAny(full);
  if (info === undefined) return { kind: 'absent' };
  if (info.isDirectory()) return { kind: 'directory' };
  if (info.isSymbolicLink()) return { kind: 'symlink', oid: blobId(Buffer.from(readlinkSync(full), 'utf8')) };
  return { kind: 'file', oid: blobId(readFileSync(full)), executable: (info.mode & 0o100) !== 0 };
}

/**
 * The file's name in its temporary twin's name: a name near the file system's
 * 255-byte limit (which git accepts) would overflow it with the suffix
 * (ENAMETOOLONG), so a long one is cut and a hash of it keeps twins apart.
 */
function tempStem(name: string): string {
  if (Buffer.byteLength(name) <= 180) return name;
  const hash = createHash('sha1').update(name).digest('hex').slice(0, 12);
  return `${Buffer.from(name)
    .subarray(0, 120)
    .toString('utf8')
    .replace(/\uFFFD+$/, '')}~${hash}`;
}

/**
 * Temp file in the same folder, then a rename: a reader sees the old file or
 * the new one. Not fsynced, as git does not fsync checkouts: the content is
 * safe in the commit, and `git restore` rebuilds the file after a power cut.
 */
export async function writeWorktreeFile(dir: string, path: string, content: Uint8Array, mode: FileMode): Promise<BigIntStats> {
  const full = join(dir, path);
  const temp = join(dirname(full), `.${tempStem(basename(full))}.skillgarden-${process.pid}-${randomBytes(4).toString('hex')}`);
  if (mode === '120000') inFolder(temp, () => symlinkSync(Buffer.from(content).toString('utf8'), temp));
  else writeRegularFile(temp, content, mode === '100755' ? 0o755 : 0o644);
  try {
    renameSync(temp, full);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return lstatSync(full, { bigint: true });
}

function writeRegularFile(temp: string, content: Uint8Array, mode: number): void {
  const fd = inFolder(temp, () => openSync(temp, 'wx', mode));
  try {
    writeFileSync(fd, content);
    // The umask may have masked the mode given to open.
    fchmodSync(fd, mode);
  } finally {
    closeSync(fd);
  }
}

/** Removes the file, then every folder it leaves empty (git does not track folders). */
export async function removeWorktreeFile(dir: string, path: string): Promise<void> {
  rmSync(join(dir, path), { force: true });
  const parts = path.split('/').slice(0, -1);
  while (parts.length > 0) {
    try {
      rmdirSync(join(dir, ...parts));
    } catch {
      return;
    }
    parts.pop();
  }
}
