import { findLookalikeNames } from '../../core/layout/lookalike-names.js';
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { SkillgardenError } from '../../core/errors.js';
import { finding, type Finding } from '../../core/findings.js';
import { skillFileName } from '../../core/layout.js';
import { archiveRootOf, qualifiedName, skillPathIn, type LibraryLayout } from '../../core/layout/skill-roots.js';
import { suggestRoots, type SuggestedRoot } from '../../core/layout/suggest-roots.js';
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
  /** The plugin it belongs to, when the layout says so. */
  plugin?: string;
  /** What clients call it: `plugin:skill` for a plugin's skill (as Claude Code names it), else its folder's name. */
  id: string;
}

/** A skill folder reached through a symbolic link to another skill of the library: served once, as its target. */
export interface SkillAlias {
  location: LibraryLocation;
  target: LibraryLocation;
}

/** A skill folder that resolves outside the repository: never served, never read. */
export interface EscapedSkill {
  location: LibraryLocation;
  /** Where it really is. */
  target: string;
}

export interface DiscoveredLibrary {
  /** The repository the library was read from. */
  repoDir: string;
  layout: LibraryLayout;
  /** One per id, sorted by path. */
  skills: LibraryLocation[];
  /** Links to a skill served under its own path. */
  aliases: SkillAlias[];
  /** Skills whose SKILL.md is a link that resolves to nothing: reported on their own path, never served. */
  broken: LibraryLocation[];
  /** Under each root's `.archive/`. */
  archived: LibraryLocation[];
  escaped: EscapedSkill[];
  /** Skills whose id an earlier one (by path) already has: reported, not served. */
  shadowed: LibraryLocation[];
  /** Layout and manifest problems, names used twice, links out of the repository. */
  findings: Finding[];
}

/** How many category levels a Hermes library may nest (`mlops/inference/llama-cpp` is two): Hermes walks its tree whole; four bounds a runaway one. */
export const hermesCategoryDepth = 4;

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
    const depth = root.origin === 'hermes' ? { categoryDepth: hermesCategoryDepth } : {};
    for (const l of discoverSkills(dir, { ...probe, ...depth, ...(options.maxFolders ? { maxFolders: options.maxFolders } : {}) })) {
      add(atRoot(l, root.path, skillPathIn(root.path, l.relativeDir), root.plugin));
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
      ...(listed.plugin === undefined ? {} : { plugin: listed.plugin }),
      id: qualifiedName(listed.plugin, name),
    });
  }
  const all = [...found.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const { inside, escaped, aliases, broken } = resolveLinks(repoDir, all, layout);
  const { unique, shadowed, findings } = rejectDuplicates(inside);
  findings.push(...findLookalikeNames(unique.map((l) => ({ id: l.id, path: l.path, file: `${l.path}/${skillFileName}` }))));
  findings.push(...escaped.map(escapeFinding), ...broken.map(brokenFinding));
  findings.push(...findDanglingFolderLinks(repoDir, layout, readDir).map(brokenFolderFinding));
  findings.push(...findTooDeep(repoDir, layout, readDir, new Set(all.map((l) => l.path))).map(tooDeepFinding));
  const archived = discoverArchives(repoDir, layout, readDir);
  return { repoDir, layout, skills: unique, aliases, broken, archived, escaped, shadowed, findings };
}

/** How deep below a skill's folder a nested SKILL.md is looked for (as `validate FOLDER` searches). */
export const nestedDepth = 6;

/**
 * SKILL.md files inside a served skill's folder (`debugging/root-cause-tracing/SKILL.md` under `debugging/`):
 * no agent loads them, so they are not served, but `validate` checks them as it checks any folder named to it.
 */
export function discoverNested(library: DiscoveredLibrary, readDir: ReadDir): LibraryLocation[] {
  const nested: LibraryLocation[] = [];
  for (const skill of library.skills) {
    for (const l of discoverSkills(skill.dir, { readDir, deep: { maxDepth: nestedDepth } })) {
      nested.push(atRoot(l, skill.root, `${skill.path}/${l.relativeDir}`, skill.plugin));
    }
  }
  return nested;
}

/** The finding that says a nested skill is validated but never served. */
export function nestedFinding(location: LibraryLocation, parent: string): Finding {
  return finding({
    code: 'library/nested-skill',
    severity: 'warning',
    file: `${location.path}/${skillFileName}`,
    message: `${location.path} is a skill inside the skill ${parent}: agents load only ${parent}, never it`,
    hint: 'Move it beside its parent (its own folder under the root) to serve it, or rename its SKILL.md if it is a template.',
  });
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

/** What an empty library's error says: where discovery looked, where SKILL.md files do sit, and how to configure it. */
export function renderEmptyLibrary(library: DiscoveredLibrary): string {
  const roots = library.layout.roots.map((r) => `${r.path || '.'}/`);
  const found = library.layout.configured ? [] : findSkillRoots(library.repoDir);
  const top = found.slice(0, 3).map((r) => `${r.root || '.'}/ (${r.skills} skill${r.skills === 1 ? '' : 's'})`);
  return [
    'no skills found.',
    `Looked in: ${library.layout.searched.join('; ')}.`,
    roots.length > 0
      ? `Skill roots searched: ${roots.join(', ')} (a skill is <root>/<name>/SKILL.md or <root>/<category>/<name>/SKILL.md).`
      : '',
    top.length > 0
      ? `SKILL.md files sit elsewhere: ${top.join(', ')}${found.length > 3 ? ` and ${found.length - 3} more folder(s)` : ''}. Set skills_dir: "${found[0]!.root || '.'}" in .skillgarden/config.yaml, or run \`skillgarden init\`, which writes it.`
      : 'Set skills_dir in .skillgarden/config.yaml (a folder, a glob such as "plugins/*/skills", or a list), run `skillgarden init` to detect it, or pass --allow-empty for a new library.',
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * The roots that would hold the SKILL.md files of a repository no known layout covers: a bounded walk (depth 8,
 * 20,000 folders; dot folders and node_modules are never entered), then `suggestRoots`. Empty when the walk is cut.
 */
export function findSkillRoots(repoDir: string): SuggestedRoot[] {
  let found: { relativeDir: string }[];
  try {
    found = discoverSkills(repoDir, { deep: { maxDepth: 8 }, maxFolders: 20_000 });
  } catch {
    return [];
  }
  return suggestRoots(found.map((l) => l.relativeDir));
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
    const plugin = layout.roots.find((r) => r.path === root)?.plugin;
    for (const l of discoverSkills(join(repoDir, archive), { readDir })) out.push(atRoot(l, root, `${archive}/${l.relativeDir}`, plugin));
  }
  return out;
}

/** An object literal, not a spread: spreading is most of the cost of 10,000 locations. */
function atRoot(l: SkillLocation, root: string, path: string, plugin: string | undefined): LibraryLocation {
  const id = plugin === undefined ? l.name : qualifiedName(plugin, l.name);
  const location: LibraryLocation = { name: l.name, category: l.category, dir: l.dir, relativeDir: l.relativeDir, root, path, id };
  if (plugin !== undefined) location.plugin = plugin;
  if (l.linked) location.linked = true;
  return location;
}

interface ResolvedLinks {
  inside: LibraryLocation[];
  escaped: EscapedSkill[];
  aliases: SkillAlias[];
  broken: LibraryLocation[];
}

/**
 * Where each linked skill leads: outside the repository (escaped), nowhere (broken), or to a skill found at its
 * own path (an alias, served once as that skill). A link to a readable SKILL.md that nothing else serves is the
 * skill itself. Only links are resolved: a folder that is no link, under a root that is none, is where it says.
 */
function resolveLinks(repoDir: string, all: readonly LibraryLocation[], layout: LibraryLayout): ResolvedLinks {
  const out: ResolvedLinks = { inside: [], escaped: [], aliases: [], broken: [] };
  let realRepo: string;
  try {
    realRepo = realpathSync.native(repoDir);
  } catch {
    return { ...out, inside: [...all] };
  }
  // A root reached through a link taints every skill under it.
  const linkedRoots = new Set(
    layout.roots.filter((r) => r.path !== '' && realOf(join(repoDir, r.path)) !== join(realRepo, r.path)).map((r) => r.path),
  );
  const listed = new Set(layout.listed.map((l) => l.path));
  const plain = (l: LibraryLocation): boolean => !l.linked && !linkedRoots.has(l.root) && !listed.has(l.path);
  const byPath = new Map<string, LibraryLocation>();
  for (const location of all) if (plain(location)) byPath.set(location.path, location);
  for (const location of all) {
    if (plain(location)) {
      out.inside.push(location);
      continue;
    }
    const real = realOf(join(location.dir, skillFileName));
    if (real === undefined) {
      out.broken.push(location);
      continue;
    }
    const rel = relative(realRepo, dirname(real));
    if (isOutside(rel)) {
      out.escaped.push({ location, target: real });
      continue;
    }
    const targetPath = sep === '/' ? rel : rel.split(sep).join('/');
    const target = byPath.get(targetPath);
    if (target && target !== location) out.aliases.push({ location, target });
    else {
      // The first link to a folder nothing else serves is that skill; later ones are its aliases.
      if (!target) byPath.set(targetPath, location);
      out.inside.push(location);
    }
  }
  out.inside.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return out;
}

function isOutside(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel) || /^[a-z]:/i.test(rel);
}

function realOf(path: string): string | undefined {
  try {
    // The native call is one syscall; the JavaScript one lstats every component of the path.
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

function rejectDuplicates(all: readonly LibraryLocation[]): {
  unique: LibraryLocation[];
  shadowed: LibraryLocation[];
  findings: Finding[];
} {
  // Keyed by the client's name (`plugin:skill`): two plugins' `setup` skills are two skills.
  const byName = new Map<string, LibraryLocation[]>();
  for (const location of all) byName.set(location.id, [...(byName.get(location.id) ?? []), location]);
  const unique: LibraryLocation[] = [];
  const shadowed: LibraryLocation[] = [];
  const findings: Finding[] = [];
  for (const location of all) {
    const copies = byName.get(location.id)!;
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
        message: `${copies.length === 2 ? 'two' : copies.length} skills are named "${location.id}": ${paths.slice(0, -1).join(', ')} and ${paths.at(-1)}`,
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

/**
 * Links directly under a skill root (from the listings discovery made) that resolve to nothing: a skill folder linked
 * to a folder that is gone is never found as a skill, so it is a finding on its own path, as a broken SKILL.md link is.
 */
function findDanglingFolderLinks(repoDir: string, layout: LibraryLayout, readDir: ReadDir): string[] {
  const out: string[] = [];
  for (const root of layout.roots) {
    let entries;
    try {
      entries = readDir(join(repoDir, root.path));
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.isSymbolicLink() || entry.name.startsWith('.')) continue;
      const path = root.path === '' ? entry.name : `${root.path}/${entry.name}`;
      if (realOf(join(repoDir, path)) === undefined) out.push(path);
    }
  }
  return [...new Set(out)].sort();
}

/**
 * SKILL.md files one level below where discovery looks (`<root>/<category>/<group>/<name>/SKILL.md`), in folders no
 * skill holds: never served, so each is a finding instead of a silent miss. Hermes roots (walked four deep) and the
 * repository root (any project folder) are left out; the extra cost is one listing per non-skill `<category>/<group>`.
 */
function findTooDeep(repoDir: string, layout: LibraryLayout, readDir: ReadDir, served: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const folders = (dir: string): string[] => {
    try {
      return readDir(dir)
        .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
        .map((e) => e.name);
    } catch {
      return [];
    }
  };
  for (const root of layout.roots) {
    if (root.origin === 'hermes' || root.path === '') continue;
    for (const category of folders(join(repoDir, root.path))) {
      if (served.has(`${root.path}/${category}`)) continue;
      for (const group of folders(join(repoDir, root.path, category))) {
        const groupPath = `${root.path}/${category}/${group}`;
        if (served.has(groupPath)) continue;
        for (const name of folders(join(repoDir, groupPath))) {
          if (realOf(join(repoDir, groupPath, name, skillFileName)) !== undefined) out.push(`${groupPath}/${name}`);
        }
      }
    }
  }
  return [...new Set(out)].sort();
}

function tooDeepFinding(path: string): Finding {
  return finding({
    code: 'library/too-deep',
    severity: 'warning',
    file: `${path}/${skillFileName}`,
    message: `${path} is a skill two folders below its root's categories: agents read <root>/<name>/ or <root>/<category>/<name>/, so it is never served`,
    hint: 'Move it up one level, or make its parent folder a skill root (skills_dir in .skillgarden/config.yaml).',
  });
}

function brokenFolderFinding(path: string): Finding {
  return finding({
    code: 'library/broken-link',
    severity: 'warning',
    file: path,
    message: `${path} is a symbolic link that resolves to nothing`,
    hint: 'Point the link at an existing skill folder in the repository, or remove it. It is not served until then.',
  });
}

function brokenFinding(location: LibraryLocation): Finding {
  return finding({
    code: 'library/broken-link',
    severity: 'warning',
    file: `${location.path}/${skillFileName}`,
    message: `${location.path}/${skillFileName} is a symbolic link that resolves to nothing`,
    hint: 'Point the link at an existing SKILL.md in the repository, or remove it. It is not served until then.',
  });
}
