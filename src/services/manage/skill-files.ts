import { SkillgardenError } from '../../core/errors.js';
import { skillFileName } from '../../core/layout.js';
import { isPinnedInFile, parsePins, pinsFile } from '../../core/layout/pins.js';
import { parseSkill } from '../../core/skill/index.js';
import { isAutonomous, type ManageContext } from './context.js';
import { locateSkill, type LocatedSkill } from './locate.js';

// What every skill_manage action reads of a located skill, shared by the writes, the patch and a person's acts
// (kept apart from them so none of those modules imports another).

const decoder = new TextDecoder();

/** Finds the skill and refuses autonomous writes to a pinned one. */
export async function locateWritable(ctx: ManageContext, name: string): Promise<LocatedSkill> {
  const skill = await locateSkill(ctx, name);
  if (isAutonomous(ctx)) {
    const text = await readText(ctx, skill, skillFileName);
    const pins = await ctx.ledger.readFile(pinsFile);
    if (isPinned(parsePins(pins === undefined ? undefined : decoder.decode(pins)), name, text)) {
      throw refusal(
        'manage/pinned',
        `skill "${name}" is pinned: only a person changes it. Ask the user, who can run \`skillgarden unpin ${name}\`.`,
      );
    }
  }
  return skill;
}

export async function readText(ctx: ManageContext, skill: LocatedSkill, relative: string): Promise<string> {
  const bytes = await ctx.ledger.readFile(`${skill.dir}/${relative}`);
  if (bytes === undefined) throw refusal('manage/no-such-file', `${skill.name} has no file ${relative}.`);
  return decoder.decode(bytes);
}

export function oidOf(skill: LocatedSkill, relative: string): string | undefined {
  return skill.files.find((f) => f.path === `${skill.dir}/${relative}`)?.oid;
}

export function relativeFiles(skill: LocatedSkill): string[] {
  return skill.files.map((f) => f.path.slice(skill.dir.length + 1));
}

export function refusal(code: string, message: string, data: Record<string, unknown> = {}): SkillgardenError {
  return new SkillgardenError(code, message, { data: { ...data, exitCode: 1 } });
}

/** Pinned by `.skillgarden/pins.txt` or by the skill's own file. */
export function isPinned(pins: ReadonlySet<string>, name: string, skillText: string | undefined): boolean {
  if (pins.has(name)) return true;
  if (skillText === undefined || !/pinned:/.test(skillText)) return false;
  return isPinnedInFile(parseSkill(skillText, { file: skillFileName }));
}
