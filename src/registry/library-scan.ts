import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isCandidateFolder, skillFileName } from '../core/layout.js';
import type { SkillLocation } from '../store/discover.js';
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
export function readFolderSnapshot(roots: readonly string[], locations: readonly SkillLocation[], fs: ScanFs): FolderSnapshot {
  const skillDirs = new Set(locations.map((l) => l.dir));
  const stamps = new Map<string, Stamp | undefined>();
  for (const root of roots) {
    stamps.set(root, stampOf(fs.stat(root)));
    for (const name of listFolderNames(root)) {
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

/** The one discovery every command uses, with the absolute roots whose listings decide which skills exist. */
export function scanLibrary(source: LibrarySource): { library: DiscoveredLibrary; roots: string[] } {
  const library = openLibrary(source.repoDir, source.skillsDir);
  const roots = [...new Set([...library.layout.roots.map((r) => r.path), ...library.layout.listed.map((l) => l.path)])];
  return { library, roots: roots.map((r) => join(source.repoDir, r)) };
}

export function skillFilePath(location: SkillLocation): string {
  return join(location.dir, skillFileName);
}

function listFolderNames(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && isCandidateFolder(e.name))
      .map((e) => e.name);
  } catch {
    return [];
  }
}
