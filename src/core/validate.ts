import { compareFindings, type Finding } from './findings.js';
import { checkRules, type SkillFileEntry } from './rules/index.js';
import type { LibraryPlace } from './rules/types.js';
import { checkSchema } from './schema/index.js';
import type { ProfileName } from './schema/types.js';
import { parseSkill, parseSkillBytes } from './skill/index.js';
import { isQuickData } from './skill/parse.js';
import type { ParsedSkill } from './skill/types.js';

export interface ValidateSkillInput {
  /** The path reported in findings. */
  file: string;
  /** The SKILL.md content: bytes (so non-UTF-8 is caught) or already-decoded text. */
  content: Uint8Array | string;
  /** The skill folder's name, which the `name` field must equal. */
  folder: string;
  profile?: ProfileName;
  /** The files of the skill folder (relative POSIX paths), when known: enables link and size checks. */
  files?: ReadonlyMap<string, SkillFileEntry>;
  /** The skill's place in its library: lets relative links reach sibling skills (the `links` setting). */
  library?: LibraryPlace;
  /** Parse the frontmatter with the YAML parser even where the quick reader answers (the tests' plain path). */
  fullParse?: boolean;
}

export interface SkillValidation {
  skill: ParsedSkill;
  /** Sorted by position. */
  findings: Finding[];
}

/** Parses one SKILL.md and checks it against the schema profile and every rule. Never throws. */
export function validateSkill(input: ValidateSkillInput): SkillValidation {
  const options = { file: input.file, ...(input.fullParse ? { fullParse: true } : {}) };
  const skill = typeof input.content === 'string' ? parseSkill(input.content, options) : parseSkillBytes(input.content, options);
  return validateParsedSkill(skill, input);
}

/**
 * validateSkill of a SKILL.md already parsed (by parseSkill or parseSkillBytes
 * of the content, with `input.file` as its file): one parse can serve several
 * profiles. validateSkill is exactly this after its parse.
 */
export function validateParsedSkill(skill: ParsedSkill, input: Omit<ValidateSkillInput, 'content' | 'fullParse'>): SkillValidation {
  const profile = input.profile ?? 'portable';
  const findings = [...skill.findings];
  if (skill.sections.frontmatter === 'ok') {
    const schemaFindings = checkSchema({
      file: input.file,
      data: skill.data,
      ...(isQuickData(skill.data) ? { plain: true } : {}),
      profile,
      locateKey: skill.locateKey,
      locateValue: skill.locateValue,
    });
    findings.push(...schemaFindings.filter((f) => !isNamePatternFinding(f, skill)));
  }
  findings.push(
    ...checkRules({ skill, folder: input.folder, profile, files: input.files, ...(input.library ? { library: input.library } : {}) }),
  );
  return { skill, findings: findings.sort(compareFindings) };
}

/**
 * The name's format is judged by the `skill/name-format` rule, whose severity
 * depends on the profile (Hermes allows dots and underscores); the schema's
 * pattern serves editors, so its finding would only repeat the rule's.
 */
function isNamePatternFinding(f: Finding, skill: ParsedSkill): boolean {
  if (f.code !== 'schema/pattern') return false;
  const at = skill.locateValue(['name']);
  return at !== undefined && at.line === f.line && at.column === f.column;
}
