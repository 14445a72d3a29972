import { readFileSync, statSync, type Stats } from 'node:fs';
import { join, relative, sep } from 'node:path';

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
  let raw: Buffer;
  let byPath: Map<string, number> | undefined;
  let indexMs: number;
  try {
    indexMs = statSync(file).mtimeMs;
    raw = readFileSync(file);
    byPath = entryOffsets(raw);
  } catch {
    return undefined;
  }
  if (!byPath) return undefined;
  const offsets = byPath;
  const prefix = dir.endsWith(sep) ? dir : `${dir}${sep}`;
  return {
    oidIfUnchanged(abs, stat) {
      // A prefix cut, not path.relative: that normalises both paths on every call (a fifth of a warm run's time).
      const rel = abs.startsWith(prefix) ? abs.slice(prefix.length) : relative(dir, abs);
      const at = offsets.get(sep === '/' ? rel : rel.split(sep).join('/'));
      if (at === undefined || !stat.isFile()) return undefined;
      const mtime = msOf(raw, at + 8);
      const same =
        mtime === stat.mtimeMs &&
        msOf(raw, at) === stat.ctimeMs &&
        u32(raw, at + 36) === stat.size % 2 ** 32 &&
        u32(raw, at + 20) === stat.ino % 2 ** 32;
      // git's "racy clean": a file written in the same instant as the index may have changed after git hashed it.
      if (!same || mtime >= indexMs) return undefined;
      // The stage is bits 12–13 of the flags at byte 60 (git-index.ts `readEntryOid`); the id is bytes 40–59.
      return ((raw[at + 60]! >> 4) & 3) === 0 ? raw.toString('hex', at + 40, at + 60) : undefined;
    },
  };
}

const headerSize = 12;
const fixedSize = 62;

/**
 * Each entry's path and where its bytes start, as `parseIndex` (git-index.ts)
 * reads them (a later entry of the same path, a higher stage, replaces an
 * earlier), without a `Buffer` view and an object per entry: the fields are
 * read from the index's bytes at that offset. Undefined for what `parseIndex`
 * refuses (another version, a split or sparse index), whose ids are then not
 * used; a test checks the ids against `git ls-files -s`.
 */
function entryOffsets(buffer: Buffer): Map<string, number> | undefined {
  const byPath = new Map<string, number>();
  if (buffer.length === 0) return byPath;
  const version = u32(buffer, 4);
  if (buffer.toString('latin1', 0, 4) !== 'DIRC' || (version !== 2 && version !== 3)) return undefined;
  const count = u32(buffer, 8);
  let offset = headerSize;
  for (let i = 0; i < count; i += 1) {
    // A cut-off index (parseIndex's reads would throw past its end).
    if (offset + fixedSize > buffer.length) return undefined;
    const flags = (buffer[offset + 60]! << 8) | buffer[offset + 61]!;
    const pathStart = offset + fixedSize + (flags & 0x4000 ? 2 : 0);
    const pathEnd = buffer.indexOf(0, pathStart);
    if (pathEnd < 0) return undefined;
    byPath.set(buffer.toString('utf8', pathStart, pathEnd), offset);
    offset += ((pathEnd - offset + 8) & ~7) >>> 0;
  }
  // Lowercase extension signatures (split index `link`, sparse `sdir`) change what the entries mean (parseIndex refuses them).
  for (let at = offset; at + 8 <= buffer.length - 20; at += 8 + u32(buffer, at + 4)) {
    const first = buffer[at]!;
    if (first >= 0x61 && first <= 0x7a) return undefined;
  }
  return byPath;
}
