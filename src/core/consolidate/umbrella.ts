import { parseSkill, replaceBody, setField } from '../skill/index.js';
import type { ConsolidationConfig } from './config.js';
import { readToolList } from '../skill/tool-list.js';
import type { SkillFeatures } from './features.js';
import type { ParsedSkill } from '../skill/types.js';
import { readPathList } from '../skill/path-list.js';
import { countSections } from './markdown.js';
import { findSharedNameRun, findTellingName } from './umbrella-name.js';
import { stringifyUmbrellaData, type UmbrellaData } from './umbrella-yaml.js';

/**
 * countSections of a parse's body, counted once per parse: the comparator
 * below asks for each member's count several times, and each cluster is
 * chosen for twice (its evidence, then its plan). Weak: a parse let go is
 * forgotten.
 */
const sectionCounts = new WeakMap<ParsedSkill, number>();

function sectionCount(parsed: ParsedSkill): number {
  let count = sectionCounts.get(parsed);
  if (count === undefined) sectionCounts.set(parsed, (count = countSections(parsed.body)));
  return count;
}

export type UmbrellaChoice = { kind: 'existing'; umbrella: SkillFeatures; why: string } | { kind: 'new'; name: string; why: string };

/**
 * The umbrella's name says the class (issue #29: the pptx family was named
 * after its broadest member, `pptx-reference-deck-analysis`): what every
 * member's name holds (`prefix`, else the longest shared run of name tokens).
 * A member named for the class is the umbrella; otherwise a new skill is named
 * for it — with what every member is about when other skills share a bare
 * word — and the broadest member becomes a section like the rest. Only when the
 * names share nothing, or every name for the class is taken, is the broadest
 * member the umbrella under its own name.
 */
export function chooseUmbrella(
  members: readonly SkillFeatures[],
  prefix: string | null,
  taken: ReadonlySet<string>,
  config: ConsolidationConfig,
  /** Members that may not be the umbrella (their own frontmatter breaks the spec): a retry's. */
  avoid: ReadonlySet<string> = new Set(),
): UmbrellaChoice {
  const shared =
    prefix ??
    findSharedNameRun(
      members.map((m) => m.name),
      config.prefix_min_length,
    );
  const named = members.find((m) => m.name === shared && !avoid.has(m.name));
  if (named) return { kind: 'existing', umbrella: named, why: `its name is the class every member's name holds, \`${shared}\`` };
  const count = (m: SkillFeatures) => sectionCount(m.parsed);
  const broadest = [...members.filter((m) => !avoid.has(m.name))].sort(
    (a, b) => count(b) - count(a) || b.parsed.body.length - a.parsed.body.length || a.name.localeCompare(b.name),
  )[0];
  const telling = shared ? findTellingName(shared, members, taken) : undefined;
  if (telling !== undefined && telling.length <= 64 && !taken.has(telling))
    return { kind: 'new', name: telling, why: `a new skill named for the class \`${shared}\` and what every member is about` };
  // A member holds the class name but breaks the spec (a retry's): its copy keeps its own name rather than `<class>-overview`.
  const held = members.some((m) => m.name === shared);
  for (const name of shared && !held ? [shared, `${shared}-overview`] : []) {
    if (name.length <= 64 && !taken.has(name))
      return { kind: 'new', name, why: `a new skill named for the class every member's name holds, \`${shared}\`` };
  }
  if (broadest === undefined)
    return { kind: 'new', name: shared ?? `${members[0]?.name ?? 'skills'}-overview`, why: 'no member can be the umbrella' };
  const sections = count(broadest);
  const why = held
    ? `the member named for the class, \`${shared}\`, breaks the spec in its own frontmatter`
    : shared
      ? `every name for the class \`${shared}\` is taken`
      : "the members' names share no class";
  return { kind: 'existing', umbrella: broadest, why: `it is the broadest member (${sections} sections): ${why}` };
}

export interface UmbrellaFields {
  name: string;
  description: string;
  /** Every member's trigger, when they do not all fit in the description. */
  whenToUse?: string;
  tools: string[];
  paths: string[];
  absorbed: string[];
  /** A new umbrella's license (notice.ts): stated only when every member states the same. */
  license?: string;
}

function union(lists: readonly (readonly string[])[]): string[] {
  return [...new Set(lists.flat())];
}

export function unionTools(members: readonly SkillFeatures[]): string[] {
  return union(members.map((m) => m.tools));
}

export function unionPaths(members: readonly SkillFeatures[]): string[] {
  return union(members.map((m) => m.paths));
}

/** A new umbrella's SKILL.md; `paths` is written only when a member had it (it is not a spec key). */
export function buildNewUmbrellaText(fields: UmbrellaFields, body: string): string {
  const data: UmbrellaData = { name: fields.name, description: fields.description };
  if (fields.license !== undefined) data.license = fields.license;
  if (fields.tools.length > 0) data['allowed-tools'] = fields.tools.join(' ');
  if (fields.paths.length > 0) data.paths = fields.paths;
  // Under `metadata` (a string), as drafts do: a top-level when_to_use breaks the strict spec profile.
  data.metadata = { absorbed: fields.absorbed.join(', '), ...(fields.whenToUse === undefined ? {} : { when_to_use: fields.whenToUse }) };
  return `---\n${stringifyUmbrellaData(data)}---\n${body}`;
}

/** An existing umbrella with its fields edited in place (every other byte kept) and its new body. */
export function buildMergedUmbrellaText(umbrella: SkillFeatures, fields: UmbrellaFields, body: string): string {
  let text = umbrella.skill.text;
  const edit = (path: string[], value: unknown) => {
    text = setField(parseSkill(text, { file: umbrella.parsed.file }), path, value);
  };
  edit(['description'], fields.description);
  if (fields.whenToUse !== undefined) {
    const top = umbrella.parsed.fields.when_to_use !== undefined;
    edit(top ? ['when_to_use'] : ['metadata', 'when_to_use'], fields.whenToUse);
  }
  const ownTools = umbrella.parsed.fields['allowed-tools'];
  if (fields.tools.length > readToolList(ownTools).length)
    edit(['allowed-tools'], Array.isArray(ownTools) ? fields.tools : fields.tools.join(' '));
  const ownPaths = umbrella.parsed.fields.paths;
  if (fields.paths.length > readPathList(ownPaths).length) edit(['paths'], fields.paths);
  const metadata = umbrella.parsed.fields.metadata;
  const before = metadata && typeof metadata === 'object' ? (metadata as Record<string, unknown>).absorbed : undefined;
  const absorbed = [...(typeof before === 'string' && before.trim() !== '' ? before.split(/,\s*/) : []), ...fields.absorbed];
  edit(['metadata', 'absorbed'], absorbed.join(', '));
  return replaceBody(parseSkill(text, { file: umbrella.parsed.file }), body);
}
