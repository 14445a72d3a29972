import { realpathSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { SkillgardenError } from '../../core/errors.js';
import { finding, type Finding } from '../../core/findings.js';
import { skillFileName } from '../../core/layout.js';
import { archiveRootOf, skillPathIn, type LibraryLayout } from '../../core/layout/skill-roots.js';
import { createDirCache, type ReadDir } from '../dir-cache.js';
import { discoverSkills, type DiscoverOptions, type SkillLocation } from '../discover.js';
import { isFolderAt } from './expand-roots.js';
import { readLibraryLayout } from './read-layout.js';

/** A skill of the library: where it is and which root it belongs to. */
export interface LibraryLocation extends SkillLocation {
  /** The skill root, repository-relative (`''` is the repository root). */
  root: string;
  /** The skill folder, repository-relative. */
  path: string;
}

/** A skill folder that resolves outside the repository: never served, never read. */
export interface EscapedSkill {
  location: LibraryLocation;
  /** Where it really is. */
  target: string;
}

export interface DiscoveredLibrary {
  layout: LibraryLayout;
  /** One per name, sorted by path. */
  skills: LibraryLocation[];
  /** Under each root's `.archive/`. */
  archived: LibraryLocation[];
  escaped: EscapedSkill[];
  /** Skills whose name an earlier one (by path) already has: reported, not served. */
  shadowed: LibraryLocation[];
  /** Layout and manifest problems, names used twice, links out of the repository. */
  findings: Finding[];
}

export interface DiscoverLibraryOptions {
  readDir?: ReadDir;
  /** Force the SKILL.md probe (default: listings when `readDir` is given, else lstat). */
  probe?: 'stat' | 'listing';
  maxFolders?: number;
  /** Passed to discoverSkills for the roots' skills (not the archives'): each plain SKILL.md and its lstat. */
  onSkillFile?: DiscoverOptions['onSkillFile'];
}

/**
 * The one discovery every command uses (validate, scan, list, the registry,
 * MCP, the curator, the Action): the layout's roots and listed skills, each
 * skill once, a name used twice reported with both paths, and skills whose
 * folder leads out of the repository set apart.
 */
export function discoverLibrary(repoDir: string, layout: LibraryLayout, options: DiscoverLibraryOptions = {}): DiscoveredLibrary {
  const readDir = options.readDir ?? createDirCache();
  // The caller's listings are shared (validate lists each skill folder again); else each skill costs one lstat.
  const probe = {
    readDir,
    probe: options.probe ?? (options.readDir ? ('listing' as const) : ('stat' as const)),
    ...(options.onSkillFile ? { onSkillFile: options.onSkillFile } : {}),
  };
  const found = new Map<string, LibraryLocation>();
  const add = (location: LibraryLocation): void => {
    if (!found.has(location.path)) found.set(location.path, location);
  };
  for (const root of layout.roots) {
    const dir = join(repoDir, root.path);
    for (const l of discoverSkills(dir, { ...probe, ...(options.maxFolders ? { maxFolders: options.maxFolders } : {}) })) {
      add(atRoot(l, root.path, skillPathIn(root.path, l.relativeDir)));
    }
  }
  for (const listed of layout.listed) {
    const slash = listed.path.lastIndexOf('/');
    const name = basename(listed.path);
    add({
      name,
      category: undefined,
      dir: join(repoDir, listed.path),
      relativeDir: name,
      root: slash < 0 ? '' : listed.path.slice(0, slash),
      path: listed.path,
    });
  }
  const all = [...found.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const { inside, escaped } = splitEscaped(repoDir, all, layout);
  const { unique, shadowed, findings } = rejectDuplicates(inside);
  findings.push(...escaped.map(escapeFinding));
  return { layout, skills: unique, archived: discoverArchives(repoDir, layout, readDir), escaped, shadowed, findings };
}

/** The layout read and discovered in one call: what most commands want. */
export function openLibrary(
  repoDir: string,
  skillsDir: string | readonly string[] | undefined,
  options: DiscoverLibraryOptions = {},
): DiscoveredLibrary {
  const readDir = options.readDir ?? createDirCache();
  const { layout, findings } = readLibraryLayout(repoDir, skillsDir, readDir);
  // The layout's listings are reused; skill folders are probed by lstat unless the caller shares its cache.
  const library = discoverLibrary(repoDir, layout, { ...options, readDir, ...(options.readDir ? {} : { probe: 'stat' as const }) });
  return { ...library, findings: [...findings, ...library.findings] };
}

/**
 * Nothing silently empty: a library with no skills is an operational failure
 * (exit 2) that says where discovery looked, unless the caller allows it.
 */
export function requireSkills(library: DiscoveredLibrary, options: { allowEmpty?: boolean } = {}): DiscoveredLibrary {
  if (library.skills.length > 0 || library.escaped.length > 0 || options.allowEmpty) return library;
  const roots = library.layout.roots.map((r) => `${r.path || '.'}/`);
  throw new SkillgardenError('library/empty', renderEmptyLibrary(library), {
    data: { exitCode: 2, searched: library.layout.searched, roots },
  });
}

/** What an empty library's error says: where discovery looked and how to configure it. */
export function renderEmptyLibrary(library: DiscoveredLibrary): string {
  const roots = library.layout.roots.map((r) => `${r.path || '.'}/`);
  return [
    'no skills found.',
    `Looked in: ${library.layout.searched.join('; ')}.`,
    roots.length > 0
      ? `Skill roots searched: ${roots.join(', ')} (a skill is <root>/<name>/SKILL.md or <root>/<category>/<name>/SKILL.md).`
      : '',
    'Set skills_dir in .skillgarden/config.yaml (a folder, a glob such as "plugins/*/skills", or a list), run `skillgarden init` to detect it, or pass --allow-empty for a new library.',
  ]
    .filter(Boolean)
    .join('\n');
}

/** The root a new skill goes to: the only one, or the one named; several and none named is a usage error. */
export function chooseWriteRoot(layout: LibraryLayout, requested: string | undefined): string {
  const roots = layout.roots.map((r) => r.path);
  if (requested !== undefined) {
    const wanted = requested.replace(/\/+$/, '').replace(/^\.\//, '');
    if (roots.includes(wanted)) return wanted;
    throw new SkillgardenError(
      'manage/unknown-root',
      `--root "${requested}" is not a skill root of this library; roots: ${roots.map((r) => r || '.').join(', ')}.`,
      {
        data: { roots, exitCode: 2 },
      },
    );
  }
  if (roots.length === 1) return roots[0] as string;
  if (roots.length === 0) return 'skills';
  throw new SkillgardenError(
    'manage/choose-root',
    `this library has ${roots.length} skill roots (${roots.map((r) => r || '.').join(', ')}): name one with --root.`,
    {
      data: { roots, exitCode: 2 },
    },
  );
}

/**
 * The root a new skill goes when nothing names one (a drafted pattern, a
 * proposal): the first root, or `skills`.
 */
export function primaryRoot(layout: LibraryLayout): string {
  return layout.roots[0]?.path ?? parentOf(layout.listed[0]?.path) ?? 'skills';
}

/** The primary root of a repository's setting (detected when unset). */
export function readPrimaryRoot(repoDir: string, skillsDir: string | readonly string[] | undefined): string {
  return primaryRoot(readLibraryLayout(repoDir, skillsDir).layout);
}

/**
 * Every folder that holds skills: the roots and the folders of the skills a
 * manifest lists. History, rollback's allowed paths, usage and Hermes's files
 * work on all of them (archives live beside each, under `<root>/.archive/`).
 * An empty layout still has `skills`, where a first skill would go.
 */
export function libraryRoots(layout: LibraryLayout): string[] {
  const roots = new Set([...layout.roots.map((r) => r.path), ...layout.listed.map((l) => parentOf(l.path) ?? '')]);
  return roots.size === 0 ? ['skills'] : [...roots].sort();
}

/** The library roots of a repository's setting (detected when unset). */
export function readLibraryRoots(repoDir: string, skillsDir: string | readonly string[] | undefined): string[] {
  return libraryRoots(readLibraryLayout(repoDir, skillsDir).layout);
}

function parentOf(path: string | undefined): string | undefined {
  return path === undefined ? undefined : path.slice(0, Math.max(0, path.lastIndexOf('/')));
}

function discoverArchives(repoDir: string, layout: LibraryLayout, readDir: ReadDir): LibraryLocation[] {
  const out: LibraryLocation[] = [];
  for (const root of layout.roots.length + layout.listed.length === 0 ? [] : libraryRoots(layout)) {
    const archive = archiveRootOf(root);
    if (!isFolderAt(repoDir, archive, readDir)) continue;
    for (const l of discoverSkills(join(repoDir, archive), { readDir })) out.push(atRoot(l, root, `${archive}/${l.relativeDir}`));
  }
  return out;
}

/** An object literal, not a spread: spreading is most of the cost of 10,000 locations. */
function atRoot(l: SkillLocation, root: string, path: string): LibraryLocation {
  const location: LibraryLocation = { name: l.name, category: l.category, dir: l.dir, relativeDir: l.relativeDir, root, path };
  if (l.linked) location.linked = true;
  return location;
}

function splitEscaped(
  repoDir: string,
  all: readonly LibraryLocation[],
  layout: LibraryLayout,
): { inside: LibraryLocation[]; escaped: EscapedSkill[] } {
  let realRepo: string;
  try {
    realRepo = realpathSync.native(repoDir);
  } catch {
    return { inside: [...all], escaped: [] };
  }
  // A root reached through a link taints every skill under it.
  const linkedRoots = new Set(
    layout.roots.filter((r) => r.path !== '' && realOf(join(repoDir, r.path)) !== join(realRepo, r.path)).map((r) => r.path),
  );
  const listed = new Set(layout.listed.map((l) => l.path));
  const inside: LibraryLocation[] = [];
  const escaped: EscapedSkill[] = [];
  // Only links are resolved: a folder that is no link, under a root that is none, is where it says.
  for (const location of all) {
    if (!location.linked && !linkedRoots.has(location.root) && !listed.has(location.path)) {
      inside.push(location);
      continue;
    }
    const target = outside(realRepo, join(location.dir, skillFileName)) ?? outside(realRepo, location.dir);
    if (target) escaped.push({ location, target });
    else inside.push(location);
  }
  return { inside, escaped };
}

function realOf(path: string): string | undefined {
  try {
    // The native call is one syscall; the JavaScript one lstats every component of the path.
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

/** The real path when it lies outside the repository. */
function outside(realRepo: string, path: string): string | undefined {
  const real = realOf(path);
  if (real === undefined) return undefined;
  const rel = relative(realRepo, real);
  return rel === '..' || rel.startsWith(`..${sep}`) || rel.startsWith(sep) || /^[a-z]:/i.test(rel) ? real : undefined;
}

function rejectDuplicates(all: readonly LibraryLocation[]): {
  unique: LibraryLocation[];
  shadowed: LibraryLocation[];
  findings: Finding[];
} {
  const byName = new Map<string, LibraryLocation[]>();
  for (const location of all) byName.set(location.name, [...(byName.get(location.name) ?? []), location]);
  const unique: LibraryLocation[] = [];
  const shadowed: LibraryLocation[] = [];
  const findings: Finding[] = [];
  for (const location of all) {
    const copies = byName.get(location.name)!;
    if (copies[0] === location) {
      unique.push(location);
      continue;
    }
    shadowed.push(location);
    // Every copy names them all, counted: three copies are not "two skills" twice.
    const paths = copies.map((c) => c.path);
    findings.push(
      finding({
        code: 'library/duplicate-name',
        severity: 'error',
        file: `${location.path}/${skillFileName}`,
        message: `${copies.length === 2 ? 'two' : copies.length} skills are named "${location.name}": ${paths.slice(0, -1).join(', ')} and ${paths.at(-1)}`,
        hint: `A name must be unique in the library (agents load skills by name): rename or remove ${copies.length === 2 ? 'one' : 'all but one'}. ${paths[0]} is the one served.`,
      }),
    );
  }
  return { unique, shadowed, findings };
}

function escapeFinding(escaped: EscapedSkill): Finding {
  return finding({
    code: 'library/symlink-escapes',
    severity: 'error',
    file: `${escaped.location.path}/${skillFileName}`,
    message: `${escaped.location.path} is reached through a symbolic link that resolves to ${escaped.target}, outside the repository`,
    hint: 'Replace the link with the files themselves: a skill (and its category) must live inside the repository. It is not served until then.',
  });
}
