/**
 * Where skills live in a tree: `<root>/<name>/SKILL.md` or `<root>/<category>/<name>/SKILL.md`,
 * archived ones under `<root>/.archive/` with the same shapes. Paths are repository-relative with `/`.
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

/** The part of a path below the skills root, or null when the path is outside it. */
export function relativeToRoot(path: string, root: string): string | null {
  if (root === '') return path;
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : null;
}

function joinFolder(root: string, parts: readonly string[]): string {
  return [...(root === '' ? [] : [root]), ...parts].join('/');
}

/** The skill a SKILL.md path defines, or null when the path is not a skill's SKILL.md. */
export function locateSkillFile(path: string, root: string): SkillFolder | null {
  const relative = relativeToRoot(path, root);
  if (relative === null) return null;
  const parts = relative.split('/');
  const archived = parts[0] === archiveFolder;
  const rest = archived ? parts.slice(1) : parts;
  if (rest.at(-1) !== 'SKILL.md' || rest.length < 2 || rest.length > 3) return null;
  // Other dot folders (a hub cache, say) hold no skills of this library.
  if (rest.some((part) => part.startsWith('.'))) return null;
  const folderParts = parts.slice(0, -1);
  return { name: rest.at(-2) as string, folder: joinFolder(root, folderParts), archived };
}

/** Folders that could own a file, deepest first: a category's skill before a top-level one. */
export function candidateFolders(path: string, root: string): string[] {
  const relative = relativeToRoot(path, root);
  if (relative === null) return [];
  const parts = relative.split('/').slice(0, -1);
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
export function isHistoryPath(path: string, root: string): boolean {
  return relativeToRoot(path, root) !== null || isSkillFile(path);
}

export function isSkillFile(path: string): boolean {
  return path === 'SKILL.md' || path.endsWith('/SKILL.md');
}
