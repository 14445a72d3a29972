import { lstatSync, type Dirent, type Stats } from 'node:fs';
import { sep } from 'node:path';

/**
 * The stat of every folder a pass listed and of every entry in them that is
 * not a folder (a listed subfolder has its own; one not listed was not looked
 * into): `paths` (after `prefix`), and per run of `segment` paths a digest of
 * each one's mtime, ctime, inode, size and mode (five -1 for a path that did
 * not exist). Writing a file sets its mtime and ctime, adding, removing or
 * renaming an entry sets its folder's; a tool that puts an mtime back cannot
 * put the ctime back.
 *
 * Digests, not the numbers: the numbers were most of the file to parse, and
 * each lane of a digest is a chain of bijections, so one changed field always
 * changes it (several at once, by chance, 1 in 2^64). By segments, with the
 * paths likeliest to change first (SKILL.md files, the most recently changed
 * first, then other files, then folders): a run after an edit stops at the
 * first segment that differs instead of statting every path before its pass.
 */
export interface FolderStamps {
  prefix: string;
  paths: string[];
  segment: number;
  digests: string[];
}

/**
 * A path changed less than this before the pass began may change again
 * within the same timestamp tick (coarse clocks, 2 s on FAT) and look the
 * same: such a set of folders is not stamped, as git treats a racily clean file.
 */
export const racyStampMs = 2_000;

/** Paths per digest: small enough that a miss stops early, large enough that the digests stay a small part of the file. */
const segmentSize = 128;

/** Two 32-bit lanes over the words of each field's float64 (FNV-1a's step, and a multiply-xorshift). */
class StatDigest {
  private readonly float = new Float64Array(1);
  private readonly words = new Uint32Array(this.float.buffer);
  private a = 0x811c9dc5;
  private b = 0x9747b28c;

  add(value: number): void {
    this.float[0] = value;
    for (let i = 0; i < 2; i++) {
      const w = this.words[i]!;
      this.a = Math.imul(this.a ^ w, 0x01000193);
      this.b = Math.imul((this.b + w) | 0, 0x5bd1e995);
      this.b ^= this.b >>> 15;
    }
  }

  stat(stat: Stats | null): void {
    if (stat === null) for (let i = 0; i < 5; i++) this.add(-1);
    else {
      this.add(stat.mtimeMs);
      this.add(stat.ctimeMs);
      this.add(stat.ino);
      this.add(stat.size);
      this.add(stat.mode);
    }
  }

  /** The same as `stat` for a path stamped as plain data (`StampedPath`). */
  stamped(path: StampedPath): void {
    for (let i = 1; i <= 5; i++) this.add(path[i] as number);
  }

  get hex(): string {
    return `${(this.a >>> 0).toString(16).padStart(8, '0')}${(this.b >>> 0).toString(16).padStart(8, '0')}`;
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    // Absent, not a folder on the way (ENOTDIR), or not readable: as absent, which is what the pass saw too.
    return null;
  }
}

/**
 * A path stamped, as plain data (a worker thread of the pass stamps the
 * folders it listed and hands them over): its lstat's mtime, ctime, inode,
 * size and mode (five -1 for a path that did not exist), and its rank: 0 a
 * SKILL.md, 1 another file, 2 a folder (or an absent path).
 */
export type StampedPath = [path: string, mtimeMs: number, ctimeMs: number, ino: number, size: number, mode: number, rank: number];

const stampedOf = (path: string, stat: Stats | null, rank: number): StampedPath =>
  stat === null ? [path, -1, -1, -1, -1, -1, rank] : [path, stat.mtimeMs, stat.ctimeMs, stat.ino, stat.size, stat.mode, rank];

/** What the pass saw in a folder: nothing when it could not list it (as `readdir` would throw now). */
function listedOrNone(listing: (path: string) => Dirent[] | undefined, path: string): readonly Dirent[] {
  try {
    return listing(path) ?? [];
  } catch {
    return [];
  }
}

/**
 * Stamps the folders a pass listed (`listing`: the entries it saw; one it
 * cannot give, or that throws, counts as empty) and the files in them, before
 * they are digested (`digestStamps`: one thread's part, or all). Undefined
 * when the set cannot be trusted later: a symbolic link anywhere (what it
 * resolves to lies outside the stamps), or a path changed since
 * `began - racyStampMs`.
 */
export function stampPaths(
  folders: Iterable<string>,
  listing: (path: string) => Dirent[] | undefined,
  began: number,
): StampedPath[] | undefined {
  const racy = began - racyStampMs;
  const stamped: StampedPath[] = [];
  for (const path of folders) {
    const stat = lstatOrNull(path);
    if (stat !== null && (stat.isSymbolicLink() || stat.mtimeMs >= racy)) return undefined;
    stamped.push(stampedOf(path, stat, 2));
    if (stat === null || !stat.isDirectory()) continue;
    for (const entry of listedOrNone(listing, path)) {
      if (entry.isSymbolicLink()) return undefined;
      if (entry.isDirectory()) continue;
      const file = `${path}${sep}${entry.name}`;
      const child = lstatOrNull(file);
      if (child === null || child.isSymbolicLink() || child.isDirectory() || child.mtimeMs >= racy) return undefined;
      stamped.push(stampedOf(file, child, entry.name === 'SKILL.md' ? 0 : 1));
    }
  }
  return stamped;
}

/**
 * The stamps of paths stamped by one thread or several (a path stamped
 * twice counts once), likeliest to change first, in segments.
 */
export function digestStamps(paths: readonly StampedPath[], root: string): FolderStamps {
  const seen = new Set<string>();
  const stamped = paths.filter((p) => !seen.has(p[0]) && seen.add(p[0]));
  const changed = (s: StampedPath) => (s[1] === -1 ? 0 : Math.max(s[1], s[2]));
  // A stable sort: ties (equal times, as in a fresh checkout) stay in the order the threads gave; the paths are kept
  // in the order they are digested, so any order is checked alike.
  stamped.sort((x, y) => x[6] - y[6] || changed(y) - changed(x));
  const digests: string[] = [];
  for (let at = 0; at < stamped.length; at += segmentSize) {
    const digest = new StatDigest();
    const end = Math.min(stamped.length, at + segmentSize);
    for (let i = at; i < end; i++) digest.stamped(stamped[i]!);
    digests.push(digest.hex);
  }
  const all = stamped.map((s) => s[0]);
  // Paths below the root are kept relative to it: a third of the file's size.
  const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
  // The root itself is '' (stat'd as `root/`: a root that became a file then fails, as it should).
  if (!all.every((p) => p.startsWith(prefix) || p === root)) return { prefix: '', paths: all, segment: segmentSize, digests };
  return { prefix, paths: all.map((p) => p.slice(prefix.length)), segment: segmentSize, digests };
}

/**
 * Whether every stamped path still stats as it did: then each folder holds
 * the entries it held and each file the bytes it held. Stops at the first
 * segment that differs.
 */
export function stampsHold({ prefix, paths, segment, digests }: FolderStamps): boolean {
  if (digests.length !== Math.ceil(paths.length / segment)) return false;
  for (let s = 0; s < digests.length; s++) {
    const now = new StatDigest();
    const end = Math.min(paths.length, (s + 1) * segment);
    for (let i = s * segment; i < end; i++) now.stat(lstatOrNull(prefix + paths[i]));
    if (now.hex !== digests[s]) return false;
  }
  return true;
}

/** Stamps as read back from a file: anything of another shape is none. */
export function isFolderStamps(value: unknown): value is FolderStamps {
  const v = value as Partial<FolderStamps> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.prefix === 'string' &&
    typeof v.segment === 'number' &&
    Number.isInteger(v.segment) &&
    v.segment > 0 &&
    Array.isArray(v.digests) &&
    v.digests.every((d) => typeof d === 'string') &&
    Array.isArray(v.paths) &&
    v.paths.every((p) => typeof p === 'string')
  );
}
