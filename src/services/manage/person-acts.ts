import { existsSync, lstatSync, readFileSync as readFileBytes } from 'node:fs';
import { join } from 'node:path';
import { archiveDirName, metaDir, skillFileName } from '../../core/layout.js';
import { isPinnedInFile, parsePins, pinsFile, serializePins } from '../../core/layout/pins.js';
import { parseSkill, setField } from '../../core/skill/index.js';
import type { FileChange } from '../../ledger/ledger.js';
import { commitAction, type ManageContext, type ManageResult } from './context.js';
import { locateSkill, openManagedLibrary, skillFolders } from './locate.js';
import { locateWritable, readText, refusal } from './skill-files.js';

export const adoptedFile = `${metaDir}/adopted.txt`;

export async function pinSkill(ctx: ManageContext, input: { name: string }): Promise<ManageResult> {
  return setPinned(ctx, input.name, true);
}

export async function unpinSkill(ctx: ManageContext, input: { name: string }): Promise<ManageResult> {
  return setPinned(ctx, input.name, false);
}

/**
 * The pin goes to `.skillgarden/pins.txt`, never into SKILL.md, so a pin
 * cannot make a skill invalid under the configured profile. Unpinning also
 * removes a frontmatter `pinned: true` that an older tool wrote.
 */
async function setPinned(ctx: ManageContext, name: string, pinned: boolean): Promise<ManageResult> {
  if (ctx.actor !== 'user') throw refusal('manage/not-allowed', `only a person pins or unpins skills; ${ctx.actor}s cannot.`);
  const skill = await locateSkill(ctx, name);
  const text = await readText(ctx, skill, skillFileName);
  const parsed = parseSkill(text, { file: `${skill.dir}/${skillFileName}` });
  const current = await ctx.ledger.readFile(pinsFile);
  const pins = parsePins(current === undefined ? undefined : new TextDecoder().decode(current));
  const inFile = isPinnedInFile(parsed);
  if ((pins.has(name) || inFile) === pinned)
    throw refusal('manage/unchanged', `skill "${name}" is already ${pinned ? 'pinned' : 'unpinned'}.`);
  if (pinned) pins.add(name);
  else pins.delete(name);
  const changes: FileChange[] = [{ path: pinsFile, content: pins.size === 0 && current !== undefined ? null : serializePins(pins) }];
  if (!pinned && inFile) {
    const path = `${skill.dir}/${skillFileName}`;
    const next =
      parsed.fields.pinned === true ? setField(parsed, ['pinned'], undefined) : setField(parsed, ['metadata', 'pinned'], undefined);
    changes.push({ path, content: next, expected: skill.files.find((f) => f.path === path)?.oid });
  }
  if (changes[0]?.content === null && current === undefined) changes.shift();
  const action = pinned ? 'pin' : 'unpin';
  return commitAction(ctx, action, [name], pinned ? 'pin: the curator and agents leave it alone' : 'unpin', changes);
}

/** Brings a person's skill under the curator's management: recorded in Git, in a tracked file and the commit's trailers. */
export async function adoptSkill(ctx: ManageContext, input: { name: string }): Promise<ManageResult> {
  if (ctx.actor !== 'user') throw refusal('manage/not-allowed', 'only a person adopts a skill for the curator.');
  await locateSkill(ctx, input.name);
  const current = await ctx.ledger.readFile(adoptedFile);
  const names = current ? new TextDecoder().decode(current).split('\n').filter(Boolean) : [];
  if (names.includes(input.name)) throw refusal('manage/unchanged', `skill "${input.name}" is already adopted.`);
  const content = `${[...names, input.name].sort().join('\n')}\n`;
  return commitAction(ctx, 'adopt', [input.name], 'adopt: the curator may now manage it', [{ path: adoptedFile, content }]);
}

/** Moves the whole package to `<root>/.archive/[<category>/]<name>/`: restorable, never deleted. */
export async function archiveSkill(ctx: ManageContext & { now?: Date }, input: { name: string }): Promise<ManageResult> {
  const skill = await locateWritable(ctx, input.name);
  refuseDanglingAliases(ctx, skill.dir);
  const target = archiveTarget(ctx.repoDir, skill.root, skill.category, skill.name, ctx.now ?? new Date());
  const changes = moveChanges(skill.dir, target);
  return commitAction(ctx, 'archive', [skill.name], `archive to ${target}`, changes, { archivedTo: target });
}

/**
 * A skill other folders link to (its aliases: `skills/alias -> real`, `.gemini/skills/real/SKILL.md -> …`) is not
 * archived from under them: the links would point at nothing. The refusal names each link and what to do.
 */
function refuseDanglingAliases(ctx: ManageContext, dir: string): void {
  const links = openManagedLibrary(ctx)
    .aliases.filter((a) => a.target.path === dir)
    .map((a) => (isLink(a.location.dir) ? a.location.path : `${a.location.path}/${skillFileName}`))
    .sort();
  if (links.length === 0) return;
  throw refusal(
    'manage/has-aliases',
    `${dir} is linked to by ${links.length === 1 ? 'a symbolic link' : `${links.length} symbolic links`} (${links.join(', ')}); archiving it would leave ${links.length === 1 ? 'that link' : 'them'} pointing at nothing. Remove ${links.length === 1 ? 'it' : 'them'} first (\`git rm ${links.join(' ')}\` and commit), then archive again.`,
    { links },
  );
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Restores by exact canonical name: an archive folder named NAME, or NAME
 * plus a suffix whose SKILL.md is still named NAME (so `deploy` never matches
 * the archive of `deploy-checklist`). The category is kept.
 */
export async function restoreSkill(ctx: ManageContext, input: { name: string; from?: string }): Promise<ManageResult> {
  // Archives live beside their root: every root's `.archive/` is searched.
  const candidates = openManagedLibrary(ctx).archived.filter(
    (s) => s.name === input.name || (s.name.startsWith(input.name) && frontmatterName(s.dir) === input.name),
  );
  const chosen = input.from ? candidates.find((c) => c.path === input.from) : candidates.length === 1 ? candidates[0] : undefined;
  if (!chosen) {
    if (candidates.length === 0)
      throw refusal('manage/not-archived', `no archive of "${input.name}" in any ${archiveDirName}/ of the library.`);
    const list = candidates.map((c) => c.path);
    throw refusal(
      'manage/ambiguous',
      `${candidates.length} archives of "${input.name}": ${list.join(', ')}. Choose one with --from PATH.`,
      { candidates: list },
    );
  }
  const target = `${chosen.root === '' ? '' : `${chosen.root}/`}${chosen.category ? `${chosen.category}/` : ''}${input.name}`;
  if (skillFolders(ctx, input.name).length > 0 || existsSync(join(ctx.repoDir, target))) {
    throw refusal(
      'manage/exists',
      `cannot restore "${input.name}": ${target} (or another skill of that name) exists. Archive or rename it first; restore never overwrites.`,
    );
  }
  const dir = chosen.path;
  const changes = moveChanges(dir, target);
  return commitAction(ctx, 'restore', [input.name], `restore from ${dir}`, changes, { restoredFrom: dir });
}

/** The package's folder moved whole (one tree entry renamed, as `git mv` does): one commit, whatever its number of files. */
export function moveChanges(dir: string, target: string): FileChange[] {
  return [{ path: target, content: null, from: dir }];
}

function frontmatterName(dir: string): string | undefined {
  try {
    const text = new TextDecoder().decode(readFileBytes(join(dir, skillFileName)));
    const name = parseSkill(text, { file: skillFileName }).fields.name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

/** `<root>/.archive/[<category>/]<name>`, or with a time suffix when an older archive of the name is there. */
export function archiveTarget(repoDir: string, skillsDir: string, category: string | undefined, name: string, now: Date): string {
  const base = `${skillsDir === '' ? '' : `${skillsDir}/`}${archiveDirName}/${category ? `${category}/` : ''}`;
  const plain = `${base}${name}`;
  return existsSync(join(repoDir, plain)) ? `${base}${name}-${stamp(now)}` : plain;
}

function stamp(now: Date): string {
  return now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}
