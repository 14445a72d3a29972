import { type Dirent, statSync } from 'node:fs';
import { join } from 'node:path';
import { createDirCache, type ReadDir } from '../dir-cache.js';

const SKIPPED = new Set(['.archive', '.git', 'node_modules']);


function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The folder holds a SKILL.md file (a link to one counts, as `stat` would say). */
function hasSkillFile(dir: string, readDir: ReadDir): boolean {
  let entry: Dirent | undefined;
  try {
    entry = readDir(dir).find((e) => e.name === 'SKILL.md');
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
function listDirs(dir: string, readDir: ReadDir): string[] {
  const names: string[] = [];
  for (const e of readDir(dir)) {
    if (SKIPPED.has(e.name)) continue;
    if (e.isDirectory() || (e.isSymbolicLink() && isDir(join(dir, e.name)))) names.push(e.name);
  }
  return names.sort();
}

/**
 * The skill folders of a skills root: `<name>/SKILL.md` and
 * `<category>/<name>/SKILL.md` (DESIGN §2), skipping `.archive/`, `.git` and
 * `node_modules`. A stand-in until the shared library reader lands. Pass the
 * pass's `readDir` so the walk of each skill reuses these listings.
 */
export async function discoverSkillDirs(skillsRoot: string, readDir: ReadDir = createDirCache()): Promise<string[]> {
  const out: string[] = [];
  for (const name of listDirs(skillsRoot, readDir)) {
    const dir = join(skillsRoot, name);
    if (hasSkillFile(dir, readDir)) {
      out.push(dir);
      continue;
    }
    for (const child of listDirs(dir, readDir)) {
      if (hasSkillFile(join(dir, child), readDir)) out.push(join(dir, child));
    }
  }
  return out;
}

/** Every folder holding a SKILL.md under `root`, at any depth (for collections laid out another way, such as the test corpus). */
export async function discoverSkillDirsDeep(root: string, maxDepth = 8, readDir: ReadDir = createDirCache()): Promise<string[]> {
  const out: string[] = [];
  const visit = (dir: string, depth: number): void => {
    if (hasSkillFile(dir, readDir)) out.push(dir);
    if (depth >= maxDepth) return;
    for (const name of listDirs(dir, readDir)) visit(join(dir, name), depth + 1);
  };
  if (isDir(root)) visit(root, 0);
  return out;
}
