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
 * The library's folders (root, and every folder under it that is not a
 * skill: categories and empty folders that may become skills): adding or
 * removing a skill changes one of their modification times.
 */
export function readFolderSnapshot(
  roots: readonly string[],
  locations: readonly SkillLocation[],
  fs: ScanFs,
  readDir: ReadDir = readDirUncached,
): FolderSnapshot {
  const skillDirs = new Set(locations.map((l) => l.dir));
  const stamps = new Map<string, Stamp | undefined>();
  for (const root of roots) {
    stamps.set(root, stampOf(fs.stat(root)));
    for (const name of listFolderNames(root, readDir)) {
      const dir = join(root, name);
      if (!skillDirs.has(dir)) stamps.set(dir, stampOf(fs.stat(dir)));
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
 * the listings it read (readFolderSnapshot lists the roots again otherwise). Skill folders are still probed by
 * one lstat each: `onSkillFile` is told each plain SKILL.md's.
 */
export function scanLibrary(
  source: LibrarySource,
  onSkillFile?: (file: string, stat: FileStat) => void,
): { library: DiscoveredLibrary; roots: string[]; readDir: ReadDir } {
  const readDir = createDirCache();
  const library = openLibrary(source.repoDir, source.skillsDir, { readDir, probe: 'stat', ...(onSkillFile ? { onSkillFile } : {}) });
  const roots = [...new Set([...library.layout.roots.map((r) => r.path), ...library.layout.listed.map((l) => l.path)])];
  return { library, roots: roots.map((r) => join(source.repoDir, r)), readDir };
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
