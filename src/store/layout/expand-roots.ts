import type { Dirent } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { hasGlob } from '../../core/layout/skill-roots.js';
import type { ReadDir } from '../dir-cache.js';

/** Folders never searched by a glob: they hold no library of their own. */
const neverSearched = new Set(['.git', 'node_modules', '.skillgarden', '.archive']);
const maxGlobstarDepth = 6;

/**
 * The folders a `skills_dir` glob names (`plugins/*\/skills`, `packs/**\/skills`),
 * repository-relative and sorted. Matched one path segment at a time against
 * folder listings, so the walk never leaves the folders the pattern can reach.
 */
export function expandRootGlob(repoDir: string, pattern: string, readDir: ReadDir): string[] {
  const segments = pattern.split('/');
  const found = new Set<string>();
  const walk = (at: string[], rest: readonly string[], depth: number): void => {
    const [segment, ...tail] = rest;
    if (segment === undefined) {
      if (at.length > 0) found.add(at.join('/'));
      return;
    }
    if (segment === '**') {
      walk(at, tail, depth);
      if (depth >= maxGlobstarDepth) return;
      for (const child of folders(join(repoDir, ...at), readDir)) walk([...at, child], rest, depth + 1);
      return;
    }
    if (!hasGlob(segment)) return walk([...at, segment], tail, depth);
    const match = picomatch(segment, { dot: segment.startsWith('.') });
    for (const child of folders(join(repoDir, ...at), readDir)) if (match(child)) walk([...at, child], tail, depth);
  };
  walk([], segments, 0);
  return [...found].filter((path) => isFolderAt(repoDir, path, readDir)).sort();
}

function folders(dir: string, readDir: ReadDir): string[] {
  let entries: Dirent[];
  try {
    entries = readDir(dir);
  } catch {
    return [];
  }
  return entries.filter((e) => (e.isDirectory() || e.isSymbolicLink()) && !neverSearched.has(e.name)).map((e) => e.name);
}

/** True when the repository-relative path is a folder (listing its parent, so the pass's cache answers). */
export function isFolderAt(repoDir: string, path: string, readDir: ReadDir): boolean {
  if (path === '') return true;
  const slash = path.lastIndexOf('/');
  const parent = slash < 0 ? repoDir : join(repoDir, path.slice(0, slash));
  const name = path.slice(slash + 1);
  try {
    const entry = readDir(parent).find((e) => e.name === name);
    if (!entry) return false;
    if (entry.isDirectory()) return true;
    if (!entry.isSymbolicLink()) return false;
    readDir(join(parent, name));
    return true;
  } catch {
    return false;
  }
}

export function isFileAt(repoDir: string, path: string, readDir: ReadDir): boolean {
  const slash = path.lastIndexOf('/');
  const parent = slash < 0 ? repoDir : join(repoDir, path.slice(0, slash));
  try {
    return readDir(parent).some((e) => e.name === path.slice(slash + 1) && !e.isDirectory());
  } catch {
    return false;
  }
}
