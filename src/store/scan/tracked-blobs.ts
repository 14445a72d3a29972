import { readFileSync, statSync, type Stats } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parseIndex, type IndexEntry } from '../../ledger/git-index.js';

/** Blob ids git already computed for tracked files (its index), trusted only where the file's stat says it is unchanged. */
export interface TrackedBlobs {
  /** The blob id the index holds for `abs`, when its stat matches the entry and the entry is not racily clean; else undefined. */
  oidIfUnchanged(abs: string, stat: Stats): string | undefined;
}

/**
 * A big-endian 32-bit field of an index entry, from its bytes: `readUInt32BE`
 * is a call with checks per field, and a repeat run makes five per file
 * before its JIT has warmed (about a fifth of the scan's part of that run).
 */
const u32 = (raw: Buffer, at: number): number => raw[at]! * 0x1000000 + ((raw[at + 1]! << 16) | (raw[at + 2]! << 8) | raw[at + 3]!);

/** Node's `mtimeMs` from a time spec: the same two operations on the same doubles, so equal times compare equal exactly. */
const msOf = (raw: Buffer, at: number): number => u32(raw, at) * 1e3 + u32(raw, at + 4) / 1e6;

/**
 * Reads `.git/index` of the worktree `dir`. Undefined when there is none or
 * it is of a kind this reader does not parse (version 4, a split index): the
 * caller then hashes every file, which is only slower.
 */
export function readTrackedBlobs(dir: string, gitdir: string): TrackedBlobs | undefined {
  const file = join(gitdir, 'index');
  let entries: IndexEntry[];
  let indexMs: number;
  try {
    indexMs = statSync(file).mtimeMs;
    entries = parseIndex(readFileSync(file), file).entries;
  } catch {
    return undefined;
  }
  const byPath = new Map<string, IndexEntry>();
  for (const entry of entries) byPath.set(entry.path, entry);
  const prefix = dir.endsWith(sep) ? dir : `${dir}${sep}`;
  return {
    oidIfUnchanged(abs, stat) {
      // A prefix cut, not path.relative: that normalises both paths on every call (a fifth of a warm run's time).
      const rel = abs.startsWith(prefix) ? abs.slice(prefix.length) : relative(dir, abs);
      const entry = byPath.get(sep === '/' ? rel : rel.split(sep).join('/'));
      if (!entry || !stat.isFile()) return undefined;
      const { raw } = entry;
      const mtime = msOf(raw, 8);
      const same =
        mtime === stat.mtimeMs &&
        msOf(raw, 0) === stat.ctimeMs &&
        u32(raw, 36) === stat.size % 2 ** 32 &&
        u32(raw, 20) === stat.ino % 2 ** 32;
      // git's "racy clean": a file written in the same instant as the index may have changed after git hashed it.
      if (!same || mtime >= indexMs) return undefined;
      // The stage is bits 12–13 of the flags at byte 60 (git-index.ts `readEntryOid`); the id is bytes 40–59.
      return ((raw[60]! >> 4) & 3) === 0 ? raw.toString('hex', 40, 60) : undefined;
    },
  };
}
