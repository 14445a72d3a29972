import { lstatSync, type Dirent, type Stats } from 'node:fs';
import { sep } from 'node:path';

/**
 * The stat of every folder a pass listed and of every entry in them that is
 * not a folder (a listed subfolder has its own; one not listed was not looked
 * into), kept flat so that reading it back is one short parse: `paths[i]`
 * (after `prefix`) was stamped with `stamps[5i..5i+4]`, its mtime, ctime,
 * inode, size and mode, or five -1 when it did not exist. Writing a file
 * sets its mtime and ctime, adding, removing or renaming an entry sets its
 * folder's; a tool that puts an mtime back cannot put the ctime back.
 */
export interface FolderStamps {
  prefix: string;
  paths: string[];
  stamps: number[];
}

/**
 * A path changed less than this before the pass began may change again
 * within the same timestamp tick (coarse clocks, 2 s on FAT) and look the
 * same: such a set of folders is not stamped, as git treats a racily clean file.
 */
export const racyStampMs = 2_000;

const fields = 5;
const absent = [-1, -1, -1, -1, -1];

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    // Absent, not a folder on the way (ENOTDIR), or not readable: as absent, which is what the pass saw too.
    return null;
  }
}

/**
 * Stamps the folders a pass listed (`listing`: the entries it saw) and the
 * files in them. Undefined when the set cannot be trusted later: a symbolic
 * link anywhere (what it resolves to lies outside the stamps), or a path
 * changed since `began - racyStampMs`.
 */
export function stampFolders(
  folders: Iterable<string>,
  listing: (path: string) => Dirent[] | undefined,
  began: number,
  root: string,
): FolderStamps | undefined {
  const racy = began - racyStampMs;
  const paths: string[] = [];
  const stamps: number[] = [];
  const add = (path: string, stat: Stats | null) => {
    paths.push(path);
    if (stat === null) stamps.push(...absent);
    else stamps.push(stat.mtimeMs, stat.ctimeMs, stat.ino, stat.size, stat.mode);
  };
  for (const path of folders) {
    const stat = lstatOrNull(path);
    if (stat !== null && (stat.isSymbolicLink() || stat.mtimeMs >= racy)) return undefined;
    add(path, stat);
    if (stat === null || !stat.isDirectory()) continue;
    for (const entry of listing(path) ?? []) {
      if (entry.isSymbolicLink()) return undefined;
      if (entry.isDirectory()) continue;
      const file = `${path}${sep}${entry.name}`;
      const child = lstatOrNull(file);
      if (child === null || child.isSymbolicLink() || child.isDirectory() || child.mtimeMs >= racy) return undefined;
      add(file, child);
    }
  }
  // Paths below the root are kept relative to it: a third of the file's size.
  const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
  // The root itself is '' (stat'd as `root/`: a root that became a file then fails, as it should).
  if (!paths.every((p) => p.startsWith(prefix) || p === root)) return { prefix: '', paths, stamps };
  return { prefix, paths: paths.map((p) => p.slice(prefix.length)), stamps };
}

/**
 * Whether every stamped path still stats as it did: then each folder holds
 * the entries it held and each file the bytes it held.
 */
export function stampsHold({ prefix, paths, stamps }: FolderStamps): boolean {
  for (let i = 0, at = 0; i < paths.length; i++, at += fields) {
    const stat = lstatOrNull(prefix + paths[i]);
    if (stat === null) {
      if (stamps[at] !== -1) return false;
    } else if (
      stamps[at] !== stat.mtimeMs ||
      stamps[at + 1] !== stat.ctimeMs ||
      stamps[at + 2] !== stat.ino ||
      stamps[at + 3] !== stat.size ||
      stamps[at + 4] !== stat.mode
    ) {
      return false;
    }
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
    Array.isArray(v.paths) &&
    Array.isArray(v.stamps) &&
    v.stamps.length === fields * v.paths.length &&
    v.paths.every((p) => typeof p === 'string') &&
    v.stamps.every((n) => typeof n === 'number')
  );
}
