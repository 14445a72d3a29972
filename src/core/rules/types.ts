import type { Finding } from '../findings.js';
import type { ProfileName } from '../schema/types.js';
import type { ParsedSkill } from '../skill/types.js';

export type { ProfileName };
/** A file inside a skill folder, as the store saw it. Paths are POSIX and relative to the skill folder. */
export interface SkillFileEntry {
  path: string;
  size: number;
}

/** Where relative links may lead: inside the skill's folder, or to other skills of its library. */
export type LinkScope = 'skill' | 'library';

/** The skill's place in its repository, for links to other skills and to the repository's files. */
export interface LibraryPlace {
  scope: LinkScope;
  /** The skill folder relative to its repository (or, outside one, to its skill root), e.g. `plugins/a/skills/deploy`. */
  skillDir: string;
  /** Whether a path relative to that same base exists; undefined when unknown. */
  exists?: (path: string) => boolean;
  /** Whether a path relative to that base lies in a skill folder of the library; undefined when unknown. */
  inSkill?: (path: string) => boolean;
}

export interface RuleContext {
  skill: ParsedSkill;
  /** The skill folder's own name (its canonical name). */
  folder: string;
  profile: ProfileName;
  /** Every file in the skill folder; undefined when unknown (then existence checks are skipped). */
  files: ReadonlyMap<string, SkillFileEntry> | undefined;
  /** The skill's place in its library; absent: links must stay inside the skill folder. */
  library?: LibraryPlace;
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
