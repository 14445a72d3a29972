import { extractLinks } from '../rules/index.js';
import { parseSkill } from '../skill/index.js';
import { isQuickData } from '../skill/parse.js';
import type { ParsedSkill } from '../skill/types.js';
import { contentText, isMarkdownPath } from './package.js';
import { resolveRepoLink } from './rewrite.js';
import type { CuratedSkill, SkippedItem } from './types.js';

/**
 * Only agent-created or adopted skills that nobody pinned or protected and
 * that did not come bundled or from a hub (DESIGN §4). Checked here even when
 * the caller filtered already: a pinned skill must never be absorbed.
 */
export function isCuratable(skill: CuratedSkill): boolean {
  if (skill.pinned || skill.protected === true) return false;
  if (skill.provenance === 'bundled' || skill.provenance === 'hub') return false;
  return skill.provenance === 'agent' || skill.adopted === true;
}

/** The first link in the skill's Markdown that leaves the skills root (a link to another skill is fine), if any. */
function escapingLink(skill: CuratedSkill, body: string, skillsDir: string): string | undefined {
  const texts: Array<[string, string]> = [[`${skill.dir}/SKILL.md`, body]];
  for (const file of skill.files) {
    const text = isMarkdownPath(file.path) ? contentText(file.content) : undefined;
    if (text !== undefined) texts.push([`${skill.dir}/${file.path}`, text]);
  }
  for (const [file, text] of texts) {
    for (const link of extractLinks(text)) {
      if (link.target.startsWith('/') || link.target.startsWith('~')) return link.target;
      const target = resolveRepoLink(file, link.target);
      if (target && !target.path.startsWith(`${skillsDir}/`)) return link.target;
    }
  }
  return undefined;
}

/**
 * Whether the frontmatter is a YAML document the parser reads without a fatal
 * error, as `parse.document !== undefined` says. Asking `document` of a parse
 * the quick reader answered runs the full YAML parser (most of a skill's cost
 * in a plan, ~0.8 s at 10,000 skills); the quick reader answers only for YAML
 * the parser reads the same way without error, so its data already says yes.
 */
export function hasYamlDocument(parse: ParsedSkill): boolean {
  return isQuickData(parse.data) || parse.document !== undefined;
}

/** The skills that may be clustered, and why the others that looked curated may not. */
export function selectCuratable(
  skills: readonly CuratedSkill[],
  skillsDir = 'skills',
): { eligible: CuratedSkill[]; skipped: SkippedItem[]; parsed: ParsedSkill[] } {
  const skipped: SkippedItem[] = [];
  const byName = new Map<string, CuratedSkill[]>();
  for (const skill of skills) byName.set(skill.name, [...(byName.get(skill.name) ?? []), skill]);
  const eligible: CuratedSkill[] = [];
  // Each eligible skill's parse, handed on to the features: a YAML parse is most of a skill's cost in a plan.
  const parsed: ParsedSkill[] = [];
  for (const [name, list] of byName) {
    if (list.length > 1) {
      skipped.push({
        names: [name],
        reason: `the name ${name} is used by ${list.length} skills (${list.map((s) => s.dir).join(', ')}): rename all but one so references are unambiguous`,
      });
      continue;
    }
    const skill = list[0] as CuratedSkill;
    if (!isCuratable(skill)) continue;
    const parse = parseSkill(skill.text, { file: `${skill.dir}/SKILL.md` });
    if (parse.sections.frontmatter !== 'ok' || !hasYamlDocument(parse) || parse.fields.name !== skill.name) {
      skipped.push({
        names: [name],
        reason: `${skill.dir}/SKILL.md has no valid frontmatter naming it ${name}: fix it (skillgarden validate) before it can be merged`,
      });
      continue;
    }
    const escaping = escapingLink(skill, parse.body, skillsDir);
    if (escaping !== undefined) {
      skipped.push({
        names: [name],
        reason: `${skill.dir} links outside the skills folder (${escaping}): copy the file into the skill and link it relatively before it can be merged`,
      });
      continue;
    }
    eligible.push(skill);
    parsed.push(parse);
  }
  return { eligible, skipped, parsed };
}
