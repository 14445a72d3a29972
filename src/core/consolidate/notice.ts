import type { SkillFeatures } from './features.js';

/** Who wrote a member and under which terms, as its frontmatter says. */
export interface Attribution {
  name: string;
  dir: string;
  license?: string;
  author?: string;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** `license`, and `author` (top level, or `metadata.author` / `metadata.skill-author` as some sources write it). */
export function readAttribution(member: SkillFeatures): Attribution {
  const fields = member.parsed.fields;
  const metadata = fields.metadata && typeof fields.metadata === 'object' ? (fields.metadata as Record<string, unknown>) : {};
  const license = text(fields.license);
  const author = text(fields.author) ?? text(metadata.author) ?? text(metadata['skill-author']);
  return { name: member.name, dir: member.skill.dir, ...(license ? { license } : {}), ...(author ? { author } : {}) };
}

export interface NoticePlan {
  /** The license a new umbrella may state: every member's, when they all state the same one. */
  license?: string;
  /** `references/NOTICE.md`, when an absorbed member's license or author differs from the umbrella's. */
  notice?: string;
}

const same = (a: Attribution, b: Attribution) => a.license === b.license && a.author === b.author;

/**
 * Keeps each member's terms (issue #29: MIT text ended up under another
 * member's Apache-2.0 and author). An existing umbrella keeps its own
 * frontmatter; a member whose license or author differs is listed in a
 * NOTICE, as is every member of a new umbrella whose members differ.
 */
export function planNotice(umbrella: SkillFeatures | undefined, siblings: readonly SkillFeatures[]): NoticePlan {
  const own = umbrella ? readAttribution(umbrella) : undefined;
  const members = siblings.map(readAttribution);
  const first = members[0];
  if (!own && first && members.every((m) => same(m, first))) return first.license ? { license: first.license } : {};
  const differ = own ? members.filter((m) => !same(m, own)) : members;
  if (differ.length === 0) return {};
  const rows = [...(own ? [own] : []), ...differ].map(
    (m) => `| \`${m.name}\` | ${m.license ?? 'not stated'} | ${m.author ?? 'not stated'} | \`${m.dir}\` |`,
  );
  const notice = [
    '# Notice',
    '',
    'This skill gathers the text of the skills below. Each part stays under the terms its skill stated; the archive keeps every original.',
    '',
    '| skill | license | author | came from |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  return { notice };
}
