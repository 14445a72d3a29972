import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

const SKIPPED = new Set(['.archive', '.git', 'node_modules']);

async function isDir(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function hasSkillFile(dir: string): Promise<boolean> {
  try {
    return (await stat(join(dir, 'SKILL.md'))).isFile();
  } catch {
    return false;
  }
}

/** Sub-folders by name, linked ones included: a skill folder that is a symbolic link must still be scanned. */
async function listDirs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names: string[] = [];
  for (const e of entries) {
    if (SKIPPED.has(e.name)) continue;
    if (e.isDirectory() || (e.isSymbolicLink() && (await isDir(join(dir, e.name))))) names.push(e.name);
  }
  return names.sort();
}

/**
 * The skill folders of a skills root: `<name>/SKILL.md` and
 * `<category>/<name>/SKILL.md` (DESIGN §2), skipping `.archive/`, `.git` and
 * `node_modules`. A stand-in until the shared library reader lands.
 */
export async function discoverSkillDirs(skillsRoot: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of await listDirs(skillsRoot)) {
    const dir = join(skillsRoot, name);
    if (await hasSkillFile(dir)) {
      out.push(dir);
      continue;
    }
    for (const child of await listDirs(dir)) {
      if (await hasSkillFile(join(dir, child))) out.push(join(dir, child));
    }
  }
  return out;
}

/** Every folder holding a SKILL.md under `root`, at any depth (for collections laid out another way, such as the test corpus). */
export async function discoverSkillDirsDeep(root: string, maxDepth = 8): Promise<string[]> {
  const out: string[] = [];
  const visit = async (dir: string, depth: number): Promise<void> => {
    if (await hasSkillFile(dir)) out.push(dir);
    if (depth >= maxDepth) return;
    for (const name of await listDirs(dir)) await visit(join(dir, name), depth + 1);
  };
  if (await isDir(root)) await visit(root, 0);
  return out;
}
