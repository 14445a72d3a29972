import type { Finding } from '../findings.js';
import type { ProfileName } from '../schema/types.js';
import type { ParsedSkill } from '../skill/types.js';

export type { ProfileName };
/** A file inside a skill folder, as the store saw it. Paths are POSIX and relative to the skill folder. */
export interface SkillFileEntry {
  path: string;
  size: number;
}

export interface RuleContext {
  skill: ParsedSkill;
  /** The skill folder's own name (its canonical name). */
  folder: string;
  profile: ProfileName;
  /** Every file in the skill folder; undefined when unknown (then existence checks are skipped). */
  files: ReadonlyMap<string, SkillFileEntry> | undefined;
}

/** A check no schema can express. Rules are small, named and never throw. */
export interface Rule {
  id: string;
  check(context: RuleContext): Finding[];
}

/** Length in code points, as the spec counts (an emoji is one character, not two UTF-16 units). */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
