import type { ParsedSkill } from './types.js';

/** The SKILL.md text of a parsed skill: parse then serialize gives back the input exactly. */
export function serializeSkill(skill: Pick<ParsedSkill, 'sections'>): string {
  const { head, yaml, close, body } = skill.sections;
  return head + yaml + close + body;
}

/** The same skill with a new Markdown body; the frontmatter text is kept as it was. */
export function replaceBody(skill: Pick<ParsedSkill, 'sections'>, body: string): string {
  return serializeSkill({ sections: { ...skill.sections, body } });
}
