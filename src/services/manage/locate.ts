import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SkillgardenError } from '../../core/errors.js';
import { archiveDirName, isCandidateFolder, skillFileName } from '../../core/layout.js';
import type { LedgerFile } from '../../ledger/ledger.js';
import { findClosestNames } from '../../core/registry/closest-names.js';
import { discoverSkills } from '../../store/discover.js';
import type { ManageContext } from './context.js';

export interface LocatedSkill {
  name: string;
  category: string | undefined;
  /** Repository-relative folder, e.g. `skills/research/deploy`. */
  dir: string;
  /** The skill's files at HEAD (repository-relative paths). */
  files: LedgerFile[];
}

/** Folders (repository-relative) where a skill of this name lives in the working tree: `<root>/<name>` or `<root>/<category>/<name>`. */
export function skillFolders(
  ctx: Pick<ManageContext, 'repoDir' | 'skillsDir'>,
  name: string,
): { dir: string; category: string | undefined }[] {
  const root = join(ctx.repoDir, ctx.skillsDir);
  const found: { dir: string; category: string | undefined }[] = [];
  if (existsSync(join(root, name, skillFileName))) found.push({ dir: `${ctx.skillsDir}/${name}`, category: undefined });
  for (const category of listCategories(root)) {
    if (existsSync(join(root, category, name, skillFileName))) found.push({ dir: `${ctx.skillsDir}/${category}/${name}`, category });
  }
  return found;
}

function listCategories(root: string): string[] {
  try {
    return readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isDirectory() && isCandidateFolder(e.name) && !existsSync(join(root, e.name, skillFileName)))
      .map((e) => e.name);
  } catch {
    return [];
  }
}

/** The one active skill of this name, with its files at HEAD; a clear error otherwise. */
export async function locateSkill(ctx: ManageContext, name: string): Promise<LocatedSkill> {
  const folders = skillFolders(ctx, name);
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
    throw new SkillgardenError(
      'manage/uncommitted',
      `${folder.dir}/${skillFileName} exists but is not committed. Commit it with git (or remove it) first; skillgarden never writes over files it cannot restore.`,
      {
        data: { name, dir: folder.dir, exitCode: 1 },
      },
    );
  }
  return { name, category: folder.category, dir: folder.dir, files };
}

function notFound(ctx: ManageContext, name: string): SkillgardenError {
  const archived = existsSync(join(ctx.repoDir, ctx.skillsDir, archiveDirName))
    ? discoverSkills(join(ctx.repoDir, ctx.skillsDir, archiveDirName)).filter((s) => s.name === name || s.name.startsWith(`${name}-`))
    : [];
  if (archived.some((s) => s.name === name)) {
    return new SkillgardenError(
      'manage/archived',
      `skill "${name}" is archived. Restore it with \`skillgarden restore ${name}\` before changing it.`,
      {
        data: { name, exitCode: 1 },
      },
    );
  }
  const names = discoverSkills(join(ctx.repoDir, ctx.skillsDir)).map((s) => s.name);
  const close = closestNames(name, names);
  const hint = close.length > 0 ? ` Did you mean ${close.map((n) => `"${n}"`).join(', ')}?` : ' `skillgarden list` shows every skill.';
  return new SkillgardenError('manage/not-found', `no skill named "${name}" in ${ctx.skillsDir}/.${hint}`, {
    data: { name, suggestions: close, exitCode: 1 },
  });
}

/** Names an agent most likely meant (shared with the registry's unknown-name answers). */
export const closestNames = findClosestNames;
