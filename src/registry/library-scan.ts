import { readFileSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { isCandidateFolder, skillFileName } from '../core/layout.js';
import type { SkillLocation } from '../store/discover.js';
import { createDirCache, readDirUncached, type ReadDir } from '../store/dir-cache.js';
import { openLibrary, type DiscoveredLibrary } from '../store/layout/discover-library.js';

export interface FileStat {
  mtimeMs: number;
  size: number;
  ino: number;
  /** Absent from a fake file system; a real one always has it. */
  ctimeMs?: number;
}

/** The file system calls a scan makes: injectable, so a test can change the disk between two of them. */
export interface ScanFs {
  stat: (path: string) => FileStat | undefined;
  readFile: (path: string) => Uint8Array | undefined;
}

export const nodeScanFs: ScanFs = {
  stat(path) {
    try {
      const s = statSync(path);
      return { mtimeMs: s.mtimeMs, size: s.size, ino: s.ino, ctimeMs: s.ctimeMs };
    } catch {
      return undefined;
    }
  },
  readFile(path) {
    try {
      return readFileSync(path);
    } catch {
      return undefined;
    }
  },
};

/**
 * A file's identity for "did it change": modification time, size, inode (an atomic rename changes the inode) and
 * change time (which no one can set back: an edit whose mtime was restored still moves it, as git's index checks).
 */
export type Stamp = string;

export function stampOf(stat: FileStat | undefined): Stamp | undefined {
  return stat ? `${stat.mtimeMs}:${stat.size}:${stat.ino}:${stat.ctimeMs ?? ''}` : undefined;
}

/** Folder stamps that tell whether the set of skill folders may have changed. */
export interface FolderSnapshot {
  stamps: Map<string, Stamp | undefined>;
}

/**
 * The library's folders (each root, every folder the discovery listed that is
 * not a skill, such as categories, and every folder in those that is not a
 * skill yet, such as an empty one that may become one): adding or removing a
 * skill changes one of their modification times. `listed`: the folders the
 * discovery read, at whatever depth its layout descends.
 */
export function readFolderSnapshot(
  roots: readonly string[],
  listed: Iterable<string>,
  locations: readonly SkillLocation[],
  fs: ScanFs,
  readDir: ReadDir = readDirUncached,
): FolderSnapshot {
  const skillDirs = new Set(locations.map((l) => l.dir));
  // A folder inside a skill is the skill's content, not a place a skill can appear.
  const inSkill = (dir: string): boolean => {
    for (let at = dir.lastIndexOf(sep); at > 0; at = dir.lastIndexOf(sep, at - 1)) if (skillDirs.has(dir.slice(0, at))) return true;
    return skillDirs.has(dir);
  };
  // Only folders at or under a root: the layout probes' listings (the repository's top, `.claude`, `plugins`) would
  // make every file written at the top of the repository rediscover the library; a new layout needs a restart.
  const underRoot = (dir: string): boolean => roots.some((root) => dir === root || dir.startsWith(root + sep));
  const stamps = new Map<string, Stamp | undefined>();
  for (const folder of new Set([...roots, ...listed])) {
    if (!underRoot(folder) || inSkill(folder)) continue;
    if (!stamps.has(folder)) stamps.set(folder, stampOf(fs.stat(folder)));
    for (const name of listFolderNames(folder, readDir)) {
      const dir = join(folder, name);
      if (!skillDirs.has(dir) && !stamps.has(dir)) stamps.set(dir, stampOf(fs.stat(dir)));
    }
  }
  return { stamps };
}

export function folderSnapshotChanged(snapshot: FolderSnapshot, fs: ScanFs): boolean {
  for (const [dir, stamp] of snapshot.stamps) if (stampOf(fs.stat(dir)) !== stamp) return true;
  return false;
}

/** Where the registry reads skills from: the repository and its `skills_dir` setting (undefined: detected). */
export interface LibrarySource {
  repoDir: string;
  skillsDir: string | readonly string[] | undefined;
}

/**
 * The one discovery every command uses, with the absolute roots whose listings decide which skills exist, and
 * the folders it listed and the listings it read (readFolderSnapshot lists the roots again otherwise). Skill folders are still probed by
 * one lstat each: `onSkillFile` is told each plain SKILL.md's.
 */
export function scanLibrary(
  source: LibrarySource,
  onSkillFile?: (file: string, stat: FileStat) => void,
): { library: DiscoveredLibrary; roots: string[]; listed: string[]; readDir: ReadDir } {
  const cache = createDirCache();
  const listed: string[] = [];
  const readDir: ReadDir = (path) => {
    listed.push(path);
    return cache(path);
  };
  const opened = openLibrary(source.repoDir, source.skillsDir, { readDir, probe: 'stat', ...(onSkillFile ? { onSkillFile } : {}) });
  // The registry serves each skill by the name clients call it (`plugin:skill`), not its folder's.
  const library = { ...opened, skills: opened.skills.map((l) => (l.id === l.name ? l : { ...l, name: l.id })) };
  const roots = [...new Set([...library.layout.roots.map((r) => r.path), ...library.layout.listed.map((l) => l.path)])];
  return { library, roots: roots.map((r) => join(source.repoDir, r)), listed, readDir: cache };
}

export function skillFilePath(location: SkillLocation): string {
  // Concatenation, not path.join: a location's folder is already normal (as the discovery builds it), and this runs per skill.
  return `${location.dir}${sep}${skillFileName}`;
}

function listFolderNames(dir: string, readDir: ReadDir): string[] {
  try {
    return readDir(dir)
      .filter((e) => e.isDirectory() && isCandidateFolder(e.name))
      .map((e) => e.name);
  } catch {
    return [];
  }
}
