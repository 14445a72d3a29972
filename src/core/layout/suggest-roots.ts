import { posix } from 'node:path';

/** A folder that would hold skills found elsewhere in the repository, if `skills_dir` named it. */
export interface SuggestedRoot {
  root: string;
  skills: number;
}

/**
 * Where a library's skills sit when no known layout holds them: from the folders of the SKILL.md files found
 * (repository-relative), the roots that cover them as `<root>/<name>` or `<root>/<category>/<name>` — the two
 * shapes a root reads by default. A grandparent is preferred when it gathers skills of two categories or more
 * (`cli-tool/components/skills/<category>/<name>`); most skills first.
 */
export function suggestRoots(skillDirs: readonly string[]): SuggestedRoot[] {
  const parentOf = (dir: string): string => (dir.includes('/') ? posix.dirname(dir) : '');
  const categories = new Map<string, Set<string>>();
  for (const dir of skillDirs) {
    const parent = parentOf(dir);
    if (parent === '') continue;
    const grand = parentOf(parent);
    let set = categories.get(grand);
    if (set === undefined) categories.set(grand, (set = new Set()));
    set.add(parent);
  }
  const counts = new Map<string, number>();
  for (const dir of skillDirs) {
    const parent = parentOf(dir);
    const grand = parent === '' ? undefined : parentOf(parent);
    // A skill one level under a root whose other folders are categories: still the grandparent's library.
    const root = grand !== undefined && (categories.get(grand)?.size ?? 0) >= 2 ? grand : parent;
    counts.set(root, (counts.get(root) ?? 0) + 1);
  }
  // A root inside another holds nested skills or deeper categories: the outer root is the library, and validate
  // reports those skills (library/nested-skill) where they are.
  const inside = (root: string): boolean =>
    [...counts.keys()].some((other) => other !== root && (other === '' || root.startsWith(`${other}/`)));
  return [...counts]
    .filter(([root]) => !inside(root))
    .map(([root, skills]) => ({ root, skills }))
    .sort((a, b) => b.skills - a.skills || (a.root < b.root ? -1 : a.root > b.root ? 1 : 0));
}
