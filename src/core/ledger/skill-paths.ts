/**
 * Where skills live in a tree: `<root>/<name>/SKILL.md` or `<root>/<category>/<name>/SKILL.md`,
 * archived ones under `<root>/.archive/` with the same shapes. Paths are repository-relative with `/`.
 * A library has one root or several (`skills`, `plugins/a/skills`, …): each function takes either.
 */

export interface SkillFolder {
  name: string;
  /** The skill's folder, repository-relative. */
  folder: string;
  archived: boolean;
}

export const archiveFolder = '.archive';

/** `skills/` → `skills`; `.` or empty → the repository root. */
export function normalizeSkillsRoot(root: string): string {
  const trimmed = root
    .replace(/\\/g, '/')
    .replace(/^\.\/+/, '')
    .replace(/\/+$/, '');
  return trimmed === '.' ? '' : trimmed;
}

/** One root or several, as the ledger's options take them. */
export type SkillRoots = string | readonly string[];

/** The roots normalized, without repeats, sorted: the form an index records and a cache compares. */
export function normalizeSkillsRoots(roots: SkillRoots): string[] {
  const list = typeof roots === 'string' ? [roots] : roots;
  return [...new Set(list.map(normalizeSkillsRoot))].sort();
}

/** The root a path lies under (the deepest, should one root hold another) and the part below it. */
export function splitAtRoot(path: string, roots: SkillRoots): { root: string; rest: string } | null {
  let best: { root: string; rest: string } | null = null;
  for (const root of typeof roots === 'string' ? [roots] : roots) {
    if (root === '') best ??= { root, rest: path };
    else if (path.startsWith(`${root}/`) && (best === null || root.length > best.root.length))
      best = { root, rest: path.slice(root.length + 1) };
  }
  return best;
}

/** The part of a path below the skills root, or null when the path is outside every root. */
export function relativeToRoot(path: string, roots: SkillRoots): string | null {
  return splitAtRoot(path, roots)?.rest ?? null;
}

function joinFolder(root: string, parts: readonly string[]): string {
  return [...(root === '' ? [] : [root]), ...parts].join('/');
}

/** The skill a SKILL.md path defines, or null when the path is not a skill's SKILL.md. */
export function locateSkillFile(path: string, roots: SkillRoots): SkillFolder | null {
  const at = splitAtRoot(path, roots);
  if (at === null) return null;
  const { root } = at;
  const parts = at.rest.split('/');
  const archived = parts[0] === archiveFolder;
  const rest = archived ? parts.slice(1) : parts;
  if (rest.at(-1) !== 'SKILL.md' || rest.length < 2 || rest.length > 3) return null;
  // Other dot folders (a hub cache, say) hold no skills of this library.
  if (rest.some((part) => part.startsWith('.'))) return null;
  const folderParts = parts.slice(0, -1);
  return { name: rest.at(-2) as string, folder: joinFolder(root, folderParts), archived };
}

/** Folders that could own a file, deepest first: a category's skill before a top-level one. */
export function candidateFolders(path: string, roots: SkillRoots): string[] {
  const at = splitAtRoot(path, roots);
  if (at === null) return [];
  const { root } = at;
  const parts = at.rest.split('/').slice(0, -1);
  const skip = parts[0] === archiveFolder ? 1 : 0;
  const candidates: string[] = [];
  for (let depth = Math.min(parts.length, skip + 2); depth > skip; depth--) {
    candidates.push(joinFolder(root, parts.slice(0, depth)));
  }
  return candidates;
}

/**
 * The paths a history walk reports: everything under the skills root, and any SKILL.md outside it
 * (a library moved into its root, as anthropics/skills once was, keeps the creation of its skills).
 */
export function isHistoryPath(path: string, roots: SkillRoots): boolean {
  return relativeToRoot(path, roots) !== null || isSkillFile(path);
}

export function isSkillFile(path: string): boolean {
  return path === 'SKILL.md' || path.endsWith('/SKILL.md');
}
