import { existsSync, lstatSync, statSync, type Dirent, type Stats } from 'node:fs';
import { join, sep } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import { isCandidateFolder, skillFileName } from '../core/layout.js';
import { readDirUncached, type ReadDir } from './dir-cache.js';

/** The most folders a discovery looks at before it stops with an error (`DiscoverOptions.maxFolders`). */
export const defaultMaxFolders = 200_000;

/** A skill folder found in a library. */
export interface SkillLocation {
  /** Canonical name: the folder's name. */
  name: string;
  /** The category folder between the root and the skill, if any. */
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
  /** Share folder listings with later reads of the same pass. */
  readDir?: ReadDir;
  /** How a folder is tested for SKILL.md: one lstat (default without `readDir`), or its listing (shared with later readers). */
  probe?: 'stat' | 'listing';
  /** With the lstat probe: told each SKILL.md that is a plain file, with its lstat (the registry's stamp: one stat per skill, not two). */
  onSkillFile?: (file: string, stat: Stats) => void;
}

/**
 * Finds `<root>/<name>/SKILL.md` and `<root>/<category>/<name>/SKILL.md`
 * (one level of categories), skipping `.archive/`, hidden folders,
 * `node_modules` and support folders. Sorted by relative path.
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
  // Names from a listing hold no separator: concatenation is path.join without its normalizing, per folder.
  const base = join(root, '/');
  for (const entry of listFolders(root, readDir)) {
    if (++seen > maxFolders) throw tooManyFolders(root, maxFolders);
    const dir = base + entry.name;
    const skill = skillFileIn(dir);
    if (skill) {
      found.push(located(entry.name, undefined, dir, entry.name, entry.link || skill === 'link'));
      continue;
    }
    for (const child of listFolders(dir, readDir)) {
      if (++seen > maxFolders) throw tooManyFolders(root, maxFolders);
      const childDir = `${dir}${sep}${child.name}`;
      const childSkill = skillFileIn(childDir);
      if (childSkill) {
        found.push(
          located(child.name, entry.name, childDir, `${entry.name}/${child.name}`, entry.link || child.link || childSkill === 'link'),
        );
      }
    }
  }
  return sortLocations(found);
}

function located(name: string, category: string | undefined, dir: string, relativeDir: string, linked: boolean): SkillLocation {
  return linked ? { name, category, dir, relativeDir, linked: true } : { name, category, dir, relativeDir };
}

function sortLocations(found: SkillLocation[]): SkillLocation[] {
  return sortSkillLocations(found);
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
  return found;
}

/**
 * A folder the deep discovery's first part (`discoverDeepDeferred`) did not
 * look into: one lstat says it holds a SKILL.md, so it is most likely a skill,
 * and whoever validates it lists it anyway. That thread finishes its
 * discovery with `discoverDeferred`: the listing decides (exactly as
 * `discoverDeep` decides) and the folders below are searched for nested skills.
 */
export interface DeferredFolder {
  dir: string;
  name: string;
  /** The folders between the root and it. */
  parts: string[];
  /** Reached through a symbolic link (then never descended into). */
  link: boolean;
}

export interface DeepLimits {
  maxDepth: number;
  maxFolders: number;
  readDir: ReadDir;
}

/**
 * The part of `discoverDeep` that needs no skill folder's listing: the
 * folders an lstat shows holding a SKILL.md are handed back unlisted
 * (`deferred`), every other folder is searched as `discoverDeep` searches it
 * (so `found` holds the skills only a listing could tell, when lstat failed).
 * `seen` counts the folders looked at, as `discoverDeep` counts them against
 * `maxFolders`; the caller adds what `discoverDeferred` counts.
 */
export function discoverDeepDeferred(
  root: string,
  limits: DeepLimits,
): { found: SkillLocation[]; deferred: DeferredFolder[]; seen: number } {
  const found: SkillLocation[] = [];
  const deferred: DeferredFolder[] = [];
  let seen = 0;
  // As discoverDeep's walk; a link is never descended into, so the parts above a folder are never links.
  const walk = (dir: string, parts: string[]): void => {
    for (const entry of listFolders(dir, limits.readDir)) {
      if (++seen > limits.maxFolders) throw tooManyFolders(root, limits.maxFolders);
      const child = join(dir, entry.name);
      const probed = skillFileProbe(child);
      if (probed === 'skill') {
        deferred.push({ dir: child, name: entry.name, parts, link: entry.link });
        continue;
      }
      const childParts = [...parts, entry.name];
      // No SKILL.md by the probe: none in the listing either (but for a change in between, which no order of looking rules out).
      const skill = probed === 'unknown' ? skillFileListed(child, limits.readDir) : undefined;
      if (skill) found.push(located(entry.name, parts.at(-1), child, childParts.join('/'), entry.link || skill === 'link'));
      if (childParts.length < limits.maxDepth && !entry.link) walk(child, childParts);
    }
  };
  walk(root, []);
  return { found, deferred, seen };
}

/** The rest of `discoverDeep` for one deferred folder: whether it is a skill, by its listing, and the skills below it. */
export function discoverDeferred(root: string, folder: DeferredFolder, limits: DeepLimits): { found: SkillLocation[]; seen: number } {
  const found: SkillLocation[] = [];
  let seen = 0;
  const childParts = [...folder.parts, folder.name];
  const skill = skillFileListed(folder.dir, limits.readDir);
  if (skill) found.push(located(folder.name, folder.parts.at(-1), folder.dir, childParts.join('/'), folder.link || skill === 'link'));
  const walk = (dir: string, parts: string[]): void => {
    for (const entry of listFolders(dir, limits.readDir)) {
      if (++seen > limits.maxFolders) throw tooManyFolders(root, limits.maxFolders);
      const child = join(dir, entry.name);
      const childParts = [...parts, entry.name];
      const nested = skillFileListed(child, limits.readDir);
      if (nested) found.push(located(entry.name, parts.at(-1), child, childParts.join('/'), entry.link || nested === 'link'));
      if (childParts.length < limits.maxDepth && !entry.link) walk(child, childParts);
    }
  };
  if (childParts.length < limits.maxDepth && !folder.link) walk(folder.dir, childParts);
  return { found, seen };
}

/** Sorted as every discovery sorts its skills (by path below the root). */
export function sortSkillLocations<T extends { relativeDir: string }>(found: T[]): T[] {
  return found.sort((a, b) => (a.relativeDir < b.relativeDir ? -1 : a.relativeDir > b.relativeDir ? 1 : 0));
}

/**
 * Whether the folder's SKILL.md is there: `skill` when something is (the
 * thread's listing then decides, so a folder named SKILL.md or a link is
 * settled there), `none` when nothing or a folder is, `unknown` when it could
 * not be told (the listing is asked then). `existsSync` first: an access
 * call, no `Stats` object; an lstat only where it says no (a dangling link
 * is something).
 */
function skillFileProbe(dir: string): 'skill' | 'none' | 'unknown' {
  const file = `${dir}${sep}${skillFileName}`;
  if (existsSync(file)) return 'skill';
  try {
    const stat = lstatSync(file, { throwIfNoEntry: false });
    return stat === undefined || stat.isDirectory() ? 'none' : 'skill';
  } catch {
    return 'unknown';
  }
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

/** A count of folders over its bound: the error every discovery throws (the deferred one's caller too). */
export function tooManyFolders(root: string, max: number): SkillgardenError {
  return new SkillgardenError('store/too-many-folders', `more than ${max} folders under ${root}; is this a skills library?`, {
    data: { root, max },
  });
}
