import { lstatSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import { isCandidateFolder, skillFileName } from '../core/layout.js';
import { readDirUncached, type ReadDir } from './dir-cache.js';

/** The most folders a discovery looks at before it stops with an error (`DiscoverOptions.maxFolders`). */
export const defaultMaxFolders = 200_000;

/** A skill folder found in a library. */
export interface SkillLocation {
  /** Canonical name: the folder's name. */
  name: string;
  /** The category folders between the root and the skill (`mlops/inference` two deep), if any. */
  category: string | undefined;
  /** Absolute path of the skill folder. */
  dir: string;
  /** Path of the skill folder relative to the library root (POSIX). */
  relativeDir: string;
  /** The skill folder, its category or its SKILL.md is a symbolic link: where it resolves must be checked. */
  linked?: true;
}

export interface DiscoverOptions {
  /** Stop with an error past this many folders: a runaway tree must not hang the tool. */
  maxFolders?: number;
  /**
   * Search any depth (bounded) instead of the library layout: for validating
   * an arbitrary folder of skills, such as a checkout of someone's collection.
   */
  deep?: { maxDepth: number };
  /** Levels of categories above a skill (default 1: `<category>/<name>`); Hermes libraries nest deeper. */
  categoryDepth?: number;
  /** Share folder listings with later reads of the same pass. */
  readDir?: ReadDir;
  /** How a folder is tested for SKILL.md: one lstat (default without `readDir`), or its listing (shared with later readers). */
  probe?: 'stat' | 'listing';
  /** With the lstat probe: told each SKILL.md that is a plain file, with its lstat (the registry's stamp: one stat per skill, not two). */
  onSkillFile?: (file: string, stat: Stats) => void;
}

/**
 * Finds `<root>/<name>/SKILL.md` and `<root>/<category>/<name>/SKILL.md`
 * (one level of categories, or `categoryDepth`), skipping `.archive/`,
 * `node_modules` and support folders, never looking inside a skill. Sorted by relative path.
 */
export function discoverSkills(root: string, options: DiscoverOptions = {}): SkillLocation[] {
  const maxFolders = options.maxFolders ?? defaultMaxFolders;
  const readDir = options.readDir ?? readDirUncached;
  if (options.deep) return sortLocations(discoverDeep(root, options.deep.maxDepth, maxFolders, readDir));
  const found: SkillLocation[] = [];
  let seen = 0;
  // Without a shared listing cache, one lstat per folder is the cheapest probe (a listing costs open, getdents and close).
  const probe = options.probe ?? (options.readDir ? 'listing' : 'stat');
  const onSkillFile = options.onSkillFile;
  const skillFileIn =
    probe === 'listing'
      ? (dir: string) => skillFileListed(dir, readDir)
      : onSkillFile
        ? (dir: string) => skillFileStat(dir, onSkillFile)
        : skillFileStat;
  const categoryDepth = options.categoryDepth ?? 1;
  const walk = (dir: string, parts: readonly string[], linked: boolean): void => {
    for (const entry of listFolders(dir, readDir)) {
      if (++seen > maxFolders) throw tooManyFolders(root, maxFolders);
      // Names from a listing hold no separator: concatenation is path.join without its normalizing, per folder.
      const child = `${dir}${sep}${entry.name}`;
      const childLinked = linked || entry.link;
      const skill = skillFileIn(child);
      if (skill) {
        const category = parts.length === 0 ? undefined : parts.join('/');
        found.push(located(entry.name, category, child, [...parts, entry.name].join('/'), childLinked || skill === 'link'));
      } else if (parts.length < categoryDepth) walk(child, [...parts, entry.name], childLinked);
    }
  };
  // join normalizes the root once and ends it with one separator, which the walk adds back per folder.
  walk(join(root, '/').slice(0, -1), [], false);
  return sortLocations(found);
}

function located(name: string, category: string | undefined, dir: string, relativeDir: string, linked: boolean): SkillLocation {
  return linked ? { name, category, dir, relativeDir, linked: true } : { name, category, dir, relativeDir };
}

/** Every folder holding a SKILL.md down to `maxDepth`, nested skills included. */
function discoverDeep(root: string, maxDepth: number, maxFolders: number, readDir: ReadDir): SkillLocation[] {
  const found: SkillLocation[] = [];
  let seen = 0;
  const walk = (dir: string, parts: string[], linkedParts: boolean): void => {
    for (const entry of listFolders(dir, readDir)) {
      if (++seen > maxFolders) throw tooManyFolders(root, maxFolders);
      const child = join(dir, entry.name);
      const childParts = [...parts, entry.name];
      const skill = skillFileListed(child, readDir);
      if (skill) found.push(located(entry.name, parts.at(-1), child, childParts.join('/'), linkedParts || entry.link || skill === 'link'));
      // Never descend through a symlink: a link back up the tree would loop.
      if (childParts.length < maxDepth && !entry.link) walk(child, childParts, linkedParts || entry.link);
    }
  };
  walk(root, [], false);
  return withoutAliases(found);
}

/** A linked skill whose real folder another found skill already is: the same skill seen twice, checked once. */
function withoutAliases(found: SkillLocation[]): SkillLocation[] {
  if (!found.some((l) => l.linked)) return found;
  const real = new Set(found.filter((l) => !l.linked).map((l) => l.dir));
  return found.filter((l) => {
    if (!l.linked) return true;
    let target: string;
    try {
      target = dirname(realpathSync.native(`${l.dir}${sep}${skillFileName}`));
    } catch {
      return true;
    }
    if (real.has(target)) return false;
    real.add(target);
    return true;
  });
}

/** Sorted as every discovery sorts its skills (by path below the root). */
function sortLocations(found: SkillLocation[]): SkillLocation[] {
  return found.sort((a, b) => (a.relativeDir < b.relativeDir ? -1 : a.relativeDir > b.relativeDir ? 1 : 0));
}

/** A SKILL.md file (`file`) or a link to one (`link`) directly in the folder. */
function skillFileStat(dir: string, onSkillFile?: (file: string, stat: Stats) => void): 'file' | 'link' | undefined {
  const file = `${dir}${sep}${skillFileName}`;
  let stat: Stats | undefined;
  try {
    stat = lstatSync(file, { throwIfNoEntry: false });
  } catch {
    // There but not to be looked at (EACCES, ELOOP…): a skill all the same, whose reader reports why it cannot be read.
    return 'file';
  }
  if (stat === undefined || stat.isDirectory()) return undefined;
  if (stat.isSymbolicLink()) return 'link';
  if (onSkillFile && stat.isFile()) onSkillFile(file, stat);
  return 'file';
}

function skillFileListed(dir: string, readDir: ReadDir): 'file' | 'link' | undefined {
  try {
    const entry = readDir(dir).find((e) => e.name === skillFileName && !e.isDirectory());
    return entry === undefined ? undefined : entry.isSymbolicLink() ? 'link' : 'file';
  } catch {
    return undefined;
  }
}

function listFolders(dir: string, readDir: ReadDir): { name: string; link: boolean }[] {
  let entries: Dirent[];
  try {
    entries = readDir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new SkillgardenError('store/unreadable', `cannot read folder ${dir}: ${(error as Error).message}`, { cause: error });
  }
  // A symlinked folder counts (readSkillFolder checks where it leads); a symlinked file never does.
  return entries
    .filter((e) => isCandidateFolder(e.name) && (e.isDirectory() || (e.isSymbolicLink() && isFolder(join(dir, e.name)))))
    .map((e) => ({ name: e.name, link: e.isSymbolicLink() }));
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A count of folders over its bound. */
function tooManyFolders(root: string, max: number): SkillgardenError {
  return new SkillgardenError('store/too-many-folders', `more than ${max} folders under ${root}; is this a skills library?`, {
    data: { root, max },
  });
}
