import { skillFileName } from '../../core/layout.js';
import { skillNameProblem } from '../../core/manage/skill-name.js';
import { maxSupportFileBytes, supportPathProblem } from '../../core/manage/support-path.js';
import type { FileChange } from '../../ledger/ledger.js';
import { checkSkillContent, checkWriteScan } from './check-content.js';
import { commitAction, isAutonomous, type ManageContext, type ManageResult } from './context.js';
import { openManagedLibrary, skillFolders } from './locate.js';
import { archiveSkill } from './person-acts.js';
import { locateWritable, oidOf, readText, refusal, relativeFiles } from './skill-files.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chooseWriteRoot, type DiscoveredLibrary } from '../../store/layout/discover-library.js';

export async function createSkill(
  ctx: ManageContext,
  input: { name: string; content: string; category?: string; root?: string },
): Promise<ManageResult> {
  const problem = skillNameProblem(input.name) ?? (input.category === undefined ? undefined : categoryProblem(input.category));
  if (problem) throw refusal('manage/bad-name', `cannot create "${input.name}": ${problem}.`);
  const existing = skillFolders(ctx, input.name);
  if (existing.length > 0) {
    throw refusal(
      'manage/exists',
      `a skill named "${input.name}" already exists at ${existing.map((e) => e.dir).join(', ')}. Use \`manage edit\` or \`manage patch\` to change it, or pick another name.`,
    );
  }
  const library = openManagedLibrary(ctx);
  const root = ctx.roots === undefined ? (input.root ?? ctx.skillsDir) : chooseWriteRoot(library.layout, input.root);
  const base = root === '' ? '' : `${root}/`;
  const dir = input.category ? `${base}${input.category}/${input.name}` : `${base}${input.name}`;
  checkPlacement(ctx, library, { root, dir, category: input.category, name: input.name });
  const file = `${dir}/${skillFileName}`;
  const warnings = checkSkillContent(ctx, { file, folder: input.name, text: input.content, files: [skillFileName] });
  const gate = checkWriteScan(ctx, input.name, dir, new Map([[skillFileName, input.content]]));
  return commitAction(
    ctx,
    'create',
    [input.name],
    'create the skill',
    [{ path: file, content: input.content, expected: null }],
    { warnings },
    gate,
  );
}

export async function editSkill(ctx: ManageContext, input: { name: string; content: string }): Promise<ManageResult> {
  const skill = await locateWritable(ctx, input.name);
  const file = `${skill.dir}/${skillFileName}`;
  const before = await readText(ctx, skill, skillFileName);
  if (before === input.content) throw refusal('manage/unchanged', `${file} already has exactly this content; nothing to do.`);
  const warnings = checkSkillContent(ctx, { file, folder: skill.name, text: input.content, before, files: relativeFiles(skill) });
  const gate = checkWriteScan(ctx, skill.name, skill.dir, new Map([[skillFileName, input.content]]));
  return commitAction(
    ctx,
    'edit',
    [skill.name],
    'rewrite SKILL.md',
    [{ path: file, content: input.content, expected: oidOf(skill, skillFileName) }],
    { warnings },
    gate,
  );
}

export async function deleteSkill(ctx: ManageContext, input: { name: string }): Promise<ManageResult> {
  if (isAutonomous(ctx)) {
    // Agents and the curator never hard-delete: the most destructive act open to them is an archive.
    return archiveSkill({ ...ctx, message: ctx.message ?? 'archived instead of deleted: agents cannot delete' }, input);
  }
  const skill = await locateWritable(ctx, input.name);
  const changes: FileChange[] = skill.files.map((f) => ({ path: f.path, content: null, expected: f.oid }));
  return commitAction(ctx, 'delete', [skill.name], 'delete the skill (roll this commit back to bring it back)', changes);
}

export async function writeSkillFile(
  ctx: ManageContext,
  input: { name: string; path: string; content: Uint8Array | string },
): Promise<ManageResult> {
  const problem = supportPathProblem(input.path);
  if (problem) throw refusal('manage/bad-path', `cannot write "${input.path}": ${problem}.`);
  const size = typeof input.content === 'string' ? Buffer.byteLength(input.content) : input.content.byteLength;
  if (size > maxSupportFileBytes) {
    throw refusal(
      'manage/too-large',
      `${input.path} is ${size} bytes; support files are limited to ${maxSupportFileBytes} (1 MiB). Link to large data instead, or split it.`,
    );
  }
  const skill = await locateWritable(ctx, input.name);
  const path = `${skill.dir}/${input.path}`;
  if (skill.files.some((f) => f.path.startsWith(`${path}/`)))
    throw refusal('manage/bad-path', `${input.path} is a folder in ${skill.name}.`);
  const gate = checkWriteScan(ctx, skill.name, skill.dir, new Map([[input.path, input.content]]));
  const changes: FileChange[] = [
    { path, content: input.content, expected: oidOf(skill, input.path) ?? null, executable: input.path.startsWith('scripts/') },
  ];
  return commitAction(ctx, 'write-file', [skill.name], `write ${input.path}`, changes, {}, gate);
}

export async function removeSkillFile(ctx: ManageContext, input: { name: string; path: string }): Promise<ManageResult> {
  const problem = supportPathProblem(input.path);
  if (problem)
    throw refusal('manage/bad-path', `cannot remove "${input.path}": ${problem}. (SKILL.md itself is removed only with the whole skill.)`);
  const skill = await locateWritable(ctx, input.name);
  const oid = oidOf(skill, input.path);
  if (oid === undefined) {
    const present = relativeFiles(skill).filter((p) => p !== skillFileName);
    throw refusal(
      'manage/no-such-file',
      `${skill.name} has no file ${input.path}. Its support files: ${present.length ? present.join(', ') : 'none'}.`,
    );
  }
  return commitAction(ctx, 'remove-file', [skill.name], `remove ${input.path}`, [
    { path: `${skill.dir}/${input.path}`, content: null, expected: oid },
  ]);
}

/**
 * A category is a plain folder of skills: never a skill itself, never inside
 * one; and a new skill never lands on a category or inside another skill
 * (it would be invisible to list, patch and the scan).
 */
function checkPlacement(
  ctx: ManageContext,
  library: DiscoveredLibrary,
  target: { root: string; dir: string; category: string | undefined; name: string },
): void {
  const known = [...library.skills, ...library.shadowed, ...library.archived];
  const inside = known.find(
    (s) => target.dir.startsWith(`${s.path}/`) || (target.root !== '' && `${target.root}/`.startsWith(`${s.path}/`)),
  );
  if (inside) {
    throw refusal(
      'manage/inside-skill',
      `cannot create "${target.name}" at ${target.dir}: ${inside.path} is a skill, and a skill cannot hold another${target.category ? ' (a category must be a plain folder of skills)' : ''}. Pick another --category.`,
    );
  }
  if (existsSync(join(ctx.repoDir, target.dir))) {
    throw refusal(
      'manage/exists',
      `cannot create "${target.name}": ${target.dir} already exists (a category or other folder). Pick another name; a category is never a skill.`,
    );
  }
}

function categoryProblem(category: string): string | undefined {
  const problem = skillNameProblem(category);
  return problem ? `the category is not a valid folder name: ${problem}` : undefined;
}
