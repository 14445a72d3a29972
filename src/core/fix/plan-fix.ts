import { parseSkill, setField, stringField } from '../skill/index.js';

/** The finding codes `validate --fix` repairs: each change is mechanical and keeps what the author meant. */
export const fixableCodes = ['skill/bom', 'skill/crlf', 'skill/name-mismatch'] as const;
export type FixCode = (typeof fixableCodes)[number];

export interface SkillFixPlan {
  /** The repaired text; equal to the input when nothing applied. */
  text: string;
  fixes: { code: FixCode; description: string }[];
}

/**
 * Repairs one SKILL.md: drops a byte-order mark, turns CRLF into LF, and sets
 * `name` to the folder's name (the canonical one). Every other byte stays.
 * A frontmatter that is not a YAML map is left alone (no fix is safe there).
 */
export function planSkillFix(input: { file: string; text: string; folder: string }): SkillFixPlan {
  const fixes: SkillFixPlan['fixes'] = [];
  let text = input.text;
  if (text.startsWith('\uFEFF')) {
    text = text.slice(1);
    fixes.push({ code: 'skill/bom', description: 'removed the byte-order mark' });
  }
  if (text.includes('\r\n')) {
    text = text.replace(/\r\n/g, '\n');
    fixes.push({ code: 'skill/crlf', description: 'CRLF line endings to LF' });
  }
  const skill = parseSkill(text, { file: input.file });
  const name = stringField(skill, 'name');
  if (name !== undefined && name !== '' && name !== input.folder && skill.document && skill.document.errors.length === 0) {
    text = setField(skill, ['name'], input.folder);
    fixes.push({ code: 'skill/name-mismatch', description: `name "${name}" set to its folder's "${input.folder}"` });
  }
  return { text, fixes };
}
