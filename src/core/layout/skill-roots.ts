/**
 * Where a library's skills live (DESIGN §2): one or more skill roots, each a
 * repository-relative folder holding `<name>/SKILL.md` or
 * `<category>/<name>/SKILL.md`, plus single skills a manifest lists by path.
 * Pure: the store reads the disk and hands the listings in.
 */

/** How a root came to be part of the library: named in the config or detected from a layout people use. */
export type RootOrigin = 'config' | 'skills' | 'agent-folder' | 'marketplace' | 'plugin' | 'hermes';

export interface SkillRoot {
  /** Repository-relative POSIX path; `''` is the repository root itself. */
  path: string;
  origin: RootOrigin;
  /** The manifest or agent that made it a root, for `init` and error messages. */
  via?: string;
  /** The plugin its skills belong to: Claude Code calls them `plugin:skill`. */
  plugin?: string;
}

/** A skill a manifest lists by path (a marketplace entry's or a plugin's `skills`). */
export interface ListedSkill {
  /** Repository-relative folder of the skill. */
  path: string;
  /** The manifest, repository-relative, and the line of the path in it. */
  manifest: string;
  line: number;
  /** The plugin it belongs to, as for a root. */
  plugin?: string;
}

export interface LibraryLayout {
  roots: SkillRoot[];
  listed: ListedSkill[];
  /** Manifests that shaped the layout (repository-relative): validated as part of the library. */
  manifests: string[];
  /** True when `skills_dir` was set: nothing was detected. */
  configured: boolean;
  /** What was looked at, for the "no skills" message. */
  searched: string[];
}

/**
 * Project skill folders the major agents read (checked 2026-12 in each tool's
 * documentation): Claude Code `.claude/skills`; Codex, Gemini CLI, Goose,
 * OpenCode, Copilot and Cursor also `.agents/skills`; Copilot `.github/skills`;
 * Cursor `.cursor/skills`; Gemini CLI `.gemini/skills`; Goose `.goose/skills`;
 * OpenCode `.opencode/skills`.
 */
export const agentSkillFolders: readonly { path: string; agents: string }[] = [
  { path: '.claude/skills', agents: 'Claude Code, Copilot, Cursor, Goose, OpenCode' },
  { path: '.agents/skills', agents: 'Codex, Copilot, Cursor, Gemini CLI, Goose, OpenCode' },
  { path: '.github/skills', agents: 'GitHub Copilot' },
  { path: '.cursor/skills', agents: 'Cursor' },
  { path: '.gemini/skills', agents: 'Gemini CLI' },
  { path: '.goose/skills', agents: 'Goose' },
  { path: '.opencode/skills', agents: 'OpenCode' },
];

export const marketplaceFile = '.claude-plugin/marketplace.json';
export const claudePluginFile = '.claude-plugin/plugin.json';
export const agentPluginFile = 'plugin.json';
/** Files Hermes Agent keeps at the top of its skills folder: a folder holding one is a Hermes library. */
export const hermesMarkers: readonly string[] = ['.bundled_manifest', '.usage.json', '.hub'];

/** `skills_dir` as written: one entry or a list of them. */
export function skillsDirEntries(value: string | readonly string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return (typeof value === 'string' ? [value] : [...value]).map(normalizeRootPath);
}

/** `./skills/` → `skills`; `.` → `''` (the repository root). */
export function normalizeRootPath(path: string): string {
  const trimmed = path
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '')
    .replace(/\/{2,}/g, '/');
  return trimmed === '.' ? '' : trimmed;
}

export function hasGlob(path: string): boolean {
  return /[*?[\]{}]/.test(path);
}

/** A path that stays inside the repository: relative, no `..` segment. */
export function isInsideRepository(path: string): boolean {
  if (path.startsWith('/') || /^[a-z]:/i.test(path)) return false;
  return !path.split('/').includes('..');
}

/** Joins repository-relative parts, resolving `.` and `..`; undefined when the result leaves the repository. */
export function joinRepoPath(base: string, relative: string): string | undefined {
  const parts: string[] = base === '' ? [] : base.split('/');
  for (const part of relative.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}

/** The root an entry of `skills_dir` contributes once globs are expanded; duplicates and nested repeats removed. */
export function dedupeRoots(roots: readonly SkillRoot[]): SkillRoot[] {
  const seen = new Set<string>();
  return roots.filter((root) => !seen.has(root.path) && seen.add(root.path));
}

/** `dir/.archive`: archives live beside their root. */
export function archiveRootOf(root: string): string {
  return root === '' ? '.archive' : `${root}/.archive`;
}

/** Repository-relative path of a skill folder under a root. */
export function skillPathIn(root: string, relativeDir: string): string {
  return root === '' ? relativeDir : `${root}/${relativeDir}`;
}

/** The name a client calls a skill by: Claude Code namespaces a plugin's skills as `plugin:skill`. */
export function qualifiedName(plugin: string | undefined, name: string): string {
  return plugin === undefined ? name : `${plugin}:${name}`;
}

/** The skill's own name in a qualified one (`plugin:skill` → `skill`). */
export function plainName(name: string): string {
  return name.slice(name.lastIndexOf(':') + 1);
}
