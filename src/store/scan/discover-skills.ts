import { type Dirent, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SKIPPED = new Set(['.archive', '.git', 'node_modules']);

/** Folder listings read while discovering, by path: the walk of each skill reuses them instead of listing again. */
export type ListingCache = Map<string, Dirent[]>;

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

// Synchronous on purpose: discovery is thousands of tiny calls, and the async ones cost several times the CPU.
function list(dir: string, cache: ListingCache): Dirent[] {
  let entries = cache.get(dir);
  if (!entries) {
    entries = readdirSync(dir, { withFileTypes: true });
    cache.set(dir, entries);
  }
  return entries;
}

/** The folder holds a SKILL.md file (a link to one counts, as `stat` would say). */
function hasSkillFile(dir: string, cache: ListingCache): boolean {
  let entry: Dirent | undefined;
  try {
    entry = list(dir, cache).find((e) => e.name === 'SKILL.md');
  } catch {
    return false;
  }
  if (!entry) return false;
  if (entry.isFile()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return statSync(join(dir, 'SKILL.md')).isFile();
  } catch {
    return false;
  }
}

/** Sub-folders by name, linked ones included: a skill folder that is a symbolic link must still be scanned. */
function listDirs(dir: string, cache: ListingCache): string[] {
  const names: string[] = [];
  for (const e of list(dir, cache)) {
    if (SKIPPED.has(e.name)) continue;
    if (e.isDirectory() || (e.isSymbolicLink() && isDir(join(dir, e.name)))) names.push(e.name);
  }
  return names.sort();
}

/**
 * The skill folders of a skills root: `<name>/SKILL.md` and
 * `<category>/<name>/SKILL.md` (DESIGN §2), skipping `.archive/`, `.git` and
 * `node_modules`. A stand-in until the shared library reader lands.
 */
export async function discoverSkillDirs(skillsRoot: string, cache: ListingCache = new Map()): Promise<string[]> {
  const out: string[] = [];
  for (const name of listDirs(skillsRoot, cache)) {
    const dir = join(skillsRoot, name);
    if (hasSkillFile(dir, cache)) {
      out.push(dir);
      continue;
    }
    for (const child of listDirs(dir, cache)) {
      if (hasSkillFile(join(dir, child), cache)) out.push(join(dir, child));
    }
  }
  return out;
}

/** Every folder holding a SKILL.md under `root`, at any depth (for collections laid out another way, such as the test corpus). */
export async function discoverSkillDirsDeep(root: string, maxDepth = 8, cache: ListingCache = new Map()): Promise<string[]> {
  const out: string[] = [];
  const visit = (dir: string, depth: number): void => {
    if (hasSkillFile(dir, cache)) out.push(dir);
    if (depth >= maxDepth) return;
    for (const name of listDirs(dir, cache)) visit(join(dir, name), depth + 1);
  };
  if (isDir(root)) visit(root, 0);
  return out;
}
