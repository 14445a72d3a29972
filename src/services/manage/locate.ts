import { SkillgardenError } from '../../core/errors.js';
import { skillFileName } from '../../core/layout.js';
import type { LedgerFile } from '../../ledger/ledger.js';
import { findClosestNames } from '../../core/registry/closest-names.js';
import { ambiguousIds, matchSkillName } from '../../core/layout/skill-name-match.js';
import { openLibrary, type DiscoveredLibrary } from '../../store/layout/discover-library.js';
import type { ManageContext } from './context.js';

export interface LocatedSkill {
  name: string;
  /** What clients call it: `plugin:skill` for a plugin's skill. */
  id: string;
  category: string | undefined;
  /** The skill root it belongs to (repository-relative): its archive goes beside it. */
  root: string;
  /** Repository-relative folder, e.g. `skills/research/deploy`. */
  dir: string;
  /** The skill's files at HEAD (repository-relative paths). */
  files: LedgerFile[];
}

/** The library the context writes to: the one discovery every command uses. */
export function openManagedLibrary(ctx: Pick<ManageContext, 'repoDir' | 'skillsDir' | 'roots'>): DiscoveredLibrary {
  return openLibrary(ctx.repoDir, ctx.roots === undefined ? ctx.skillsDir : (ctx.roots ?? undefined));
}

export interface SkillFolder {
  dir: string;
  id: string;
  category: string | undefined;
  root: string;
  /** Reached through a symbolic link (its SKILL.md or folder). */
  linked: boolean;
}

/**
 * Folders (repository-relative) where a skill of this name lives in the working tree, in any root: by id, or by
 * plain name (matchSkillName); a link to another skill (an alias) answers with its target.
 */
export function skillFolders(ctx: Pick<ManageContext, 'repoDir' | 'skillsDir' | 'roots'>, name: string): SkillFolder[] {
  const library = openManagedLibrary(ctx);
  const all = [...library.skills, ...library.shadowed, ...library.escaped.map((e) => e.location)];
  const found = matchSkillName(all, name);
  const viaAlias =
    found.length > 0
      ? []
      : matchSkillName(
          library.aliases.map((a) => a.location),
          name,
        );
  const targets = library.aliases.filter((a) => viaAlias.includes(a.location)).map((a) => a.target);
  return [...found, ...new Set(targets)].map((s) => ({
    dir: s.path,
    id: s.id,
    category: s.category,
    root: s.root,
    linked: s.linked === true,
  }));
}

/** The one active skill of this name, with its files at HEAD; a clear error otherwise. */
export async function locateSkill(ctx: ManageContext, name: string): Promise<LocatedSkill> {
  const folders = skillFolders(ctx, name);
  const ids = ambiguousIds(folders);
  if (ids) {
    throw new SkillgardenError(
      'manage/ambiguous',
      `"${name}" names ${ids.length} skills of different plugins: name one of ${ids.join(', ')}.`,
      {
        data: { name, candidates: ids, exitCode: 1 },
      },
    );
  }
  if (folders.length > 1) {
    throw new SkillgardenError(
      'manage/ambiguous',
      `two skills are named "${name}": ${folders.map((f) => f.dir).join(' and ')}. Rename one: a name must be unique in the library.`,
      {
        data: { name, folders: folders.map((f) => f.dir), exitCode: 1 },
      },
    );
  }
  const folder = folders[0];
  if (!folder) throw notFound(ctx, name);
  const files = await ctx.ledger.listFiles(folder.dir);
  if (!files.some((f) => f.path === `${folder.dir}/${skillFileName}`)) {
    if (folder.linked) {
      throw new SkillgardenError(
        'manage/linked',
        `${folder.dir} is reached through a symbolic link: change the skill it leads to, or remove the link with git (git rm ${folder.dir}).`,
        { data: { name, dir: folder.dir, exitCode: 1 } },
      );
    }
    throw new SkillgardenError(
      'manage/uncommitted',
      `${folder.dir}/${skillFileName} exists but is not committed. Commit it with git (or remove it) first; skillgarden never writes over files it cannot restore.`,
      {
        data: { name, dir: folder.dir, exitCode: 1 },
      },
    );
  }
  return {
    name: folder.dir.slice(folder.dir.lastIndexOf('/') + 1),
    id: folder.id,
    category: folder.category,
    root: folder.root,
    dir: folder.dir,
    files,
  };
}

function notFound(ctx: ManageContext, name: string): SkillgardenError {
  const library = openManagedLibrary(ctx);
  if (matchSkillName(library.archived, name).length > 0) {
    return new SkillgardenError(
      'manage/archived',
      `skill "${name}" is archived. Restore it with \`skillgarden restore ${name}\` before changing it.`,
      {
        data: { name, exitCode: 1 },
      },
    );
  }
  const close = closestNames(
    name,
    library.skills.map((s) => s.id),
  );
  const roots = library.layout.roots.map((r) => `${r.path || '.'}/`).join(', ') || `${ctx.skillsDir}/`;
  const hint = close.length > 0 ? ` Did you mean ${close.map((n) => `"${n}"`).join(', ')}?` : ' `skillgarden list` shows every skill.';
  return new SkillgardenError('manage/not-found', `no skill named "${name}" in ${roots}.${hint}`, {
    data: { name, suggestions: close, exitCode: 1 },
  });
}

/** Names an agent most likely meant (shared with the registry's unknown-name answers). */
export const closestNames = findClosestNames;
