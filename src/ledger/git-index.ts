import { createHash } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { SkillgardenError } from '../core/errors.js';
import type { FileMode } from './ledger.js';

/**
 * Git's index (`.git/index`, versions 2 and 3), kept as raw entry bytes so an
 * update touches only the entries it changes. Optional extensions (the cache
 * tree, the untracked cache, …) are dropped on write: git rebuilds them, and a
 * stale one would be worse than none.
 */
export interface IndexEntry {
  path: string;
  /** The entry exactly as stored, padding included. */
  raw: Buffer;
}

export interface GitIndex {
  version: 2 | 3;
  entries: IndexEntry[];
}

const headerSize = 12;
const fixedSize = 62;

export function parseIndex(buffer: Buffer, file: string): GitIndex {
  if (buffer.length === 0) return { version: 2, entries: [] };
  const version = buffer.readUInt32BE(4);
  if (buffer.toString('latin1', 0, 4) !== 'DIRC' || (version !== 2 && version !== 3)) {
    throw unsupported(file, `version ${version}`, 'git update-index --index-version 2');
  }
  const count = buffer.readUInt32BE(8);
  const entries: IndexEntry[] = [];
  let offset = headerSize;
  for (let i = 0; i < count; i += 1) {
    const flags = buffer.readUInt16BE(offset + 60);
    const pathStart = offset + fixedSize + (flags & 0x4000 ? 2 : 0);
    const pathEnd = buffer.indexOf(0, pathStart);
    const size = ((pathEnd - offset + 8) & ~7) >>> 0;
    entries.push({ path: buffer.toString('utf8', pathStart, pathEnd), raw: buffer.subarray(offset, offset + size) });
    offset += size;
  }
  checkExtensions(buffer, offset, file);
  return { version, entries };
}

function checkExtensions(buffer: Buffer, start: number, file: string): void {
  for (let offset = start; offset + 8 <= buffer.length - 20;) {
    const signature = buffer.toString('latin1', offset, offset + 4);
    // Lowercase signatures (split index `link`, sparse `sdir`) change what the
    // entries mean; dropping them would corrupt the index.
    if (signature[0] !== undefined && signature[0] >= 'a' && signature[0] <= 'z') {
      throw unsupported(file, `extension "${signature}"`, 'git update-index --no-split-index (or disable sparse index)');
    }
    offset += 8 + buffer.readUInt32BE(offset + 4);
  }
}

export function serializeIndex(index: GitIndex): Buffer {
  const header = Buffer.alloc(headerSize);
  header.write('DIRC', 0, 'latin1');
  header.writeUInt32BE(index.version, 4);
  header.writeUInt32BE(index.entries.length, 8);
  const body = Buffer.concat([header, ...mergeAdjacent(index.entries.map((entry) => entry.raw))]);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

/** Unchanged entries are consecutive slices of the file that was read: copy them as a few big runs, not 20,000 small ones. */
function mergeAdjacent(slices: readonly Buffer[]): Buffer[] {
  const runs: Buffer[] = [];
  let first: Buffer | undefined;
  let end = 0;
  const flush = () => {
    if (first) runs.push(Buffer.from(first.buffer, first.byteOffset, end - first.byteOffset));
  };
  for (const slice of slices) {
    if (first && first.buffer === slice.buffer && end === slice.byteOffset) {
      end += slice.length;
      continue;
    }
    flush();
    first = slice;
    end = slice.byteOffset + slice.length;
  }
  flush();
  return runs;
}

export interface EntryInput {
  path: string;
  oid: string;
  mode: FileMode;
  stat: BigIntStats;
}

export function buildIndexEntry(input: EntryInput): IndexEntry {
  const pathBytes = Buffer.from(input.path, 'utf8');
  const size = (fixedSize + pathBytes.length + 8) & ~7;
  const raw = Buffer.alloc(size);
  const { stat } = input;
  const u32 = (value: bigint) => Number(value & 0xffffffffn);
  const fields = [
    stat.ctimeNs / 1_000_000_000n,
    stat.ctimeNs % 1_000_000_000n,
    stat.mtimeNs / 1_000_000_000n,
    stat.mtimeNs % 1_000_000_000n,
    stat.dev,
    stat.ino,
    BigInt(parseInt(input.mode, 8)),
    stat.uid,
    stat.gid,
    stat.size,
  ];
  fields.forEach((value, i) => raw.writeUInt32BE(u32(value), i * 4));
  raw.write(input.oid, 40, 'hex');
  raw.writeUInt16BE(Math.min(pathBytes.length, 0xfff), 60);
  pathBytes.copy(raw, fixedSize);
  return { path: input.path, raw };
}

/** Blob id and stage stored in an entry (stage > 0 means an unresolved merge). */
export function readEntryOid(entry: IndexEntry): { oid: string; stage: number; mode: number } {
  return {
    oid: entry.raw.toString('hex', 40, 60),
    stage: (entry.raw.readUInt16BE(60) >> 12) & 3,
    mode: entry.raw.readUInt32BE(24),
  };
}

/** Git orders entries by the bytes of their paths. */
export function comparePaths(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Index of the first entry whose path is >= `path`. */
export function findEntry(entries: readonly IndexEntry[], path: string): number {
  let low = 0;
  let high = entries.length;
  const key = Buffer.from(path, 'utf8');
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (Buffer.compare(Buffer.from(entries[mid]!.path, 'utf8'), key) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Replaces every stage of each path with the given entry, or removes it (`null`). */
export function applyIndexChanges(index: GitIndex, changes: ReadonlyMap<string, IndexEntry | null>): GitIndex {
  const entries = index.entries.slice();
  const paths = [...changes.keys()].sort(comparePaths);
  for (const path of paths) {
    const start = findEntry(entries, path);
    let end = start;
    while (end < entries.length && entries[end]!.path === path) end += 1;
    const replacement = changes.get(path);
    entries.splice(start, end - start, ...(replacement ? [replacement] : []));
  }
  return { version: index.version, entries };
}

function unsupported(file: string, what: string, fix: string): SkillgardenError {
  return new SkillgardenError(
    'ledger/unsupported-index',
    `${file} uses ${what}, which skillgarden cannot update safely. Run \`${fix}\` and retry.`,
    {
      data: { path: file },
    },
  );
}
