import { stringify } from 'yaml';
import { buildDraftName, buildUniqueName } from './draft-name.js';
import { describeTools, renderToolLabel } from './describe-tools.js';
import type { DetectedPattern, DraftSkill, Pattern } from './types.js';

export interface ExistingSkill {
  name: string;
  /** The whole SKILL.md text. */
  text: string;
}

/**
 * `spec`: only Agent Skills spec keys at the top (`name`, `description`,
 * `metadata`), with `version`, `pinned` and `when_to_use` as strings under
 * `metadata`, so drafts pass the strict `spec` profile. `runtime`: those three
 * at the top as DESIGN §7 lists them (valid under the default profile).
 */
export type DraftProfile = 'spec' | 'runtime';

export interface DraftOptions {
  profile?: DraftProfile;
  /** Typical argument shape per token (most frequent), for the steps. */
  shapes?: ReadonlyMap<string, string>;
}

const maxDescription = 1024;

function stripAngles(text: string): string {
  return text.replace(/[<>]/g, '');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The word a skill body must name for a token to count as covered. */
function namedWord(token: string): string {
  const colon = token.indexOf(':');
  return colon >= 0 ? token.slice(colon + 1) : token;
}

function bodyOf(text: string): string {
  const match = /^---\r?\n[\s\S]*?\r?\n---\r?\n?/.exec(text);
  return match === null ? text : text.slice(match[0].length);
}

/** The skill that already covers a pattern: it records the fingerprint, or its body names every tool. */
export function findCoveringSkill(pattern: Pattern, existing: readonly ExistingSkill[]): string | undefined {
  for (const skill of existing) {
    if (skill.text.includes(pattern.fingerprint)) return skill.name;
    const body = bodyOf(skill.text);
    const named = pattern.tools.every((token) => new RegExp(`(^|[^\\w])${escapeRegExp(namedWord(token))}($|[^\\w])`).test(body));
    if (named) return skill.name;
  }
  return undefined;
}

function renderStep(token: string, index: number, shapes: ReadonlyMap<string, string> | undefined): string {
  const shape = shapes?.get(token);
  const colon = token.indexOf(':');
  if (colon >= 0) return `${index + 1}. Run \`${token.slice(colon + 1)} …\` with \`${token.slice(0, colon)}\`.`;
  if (shape === undefined || shape === '') return `${index + 1}. Call ${renderToolLabel(token)}.`;
  return `${index + 1}. Call ${renderToolLabel(token)} (typical arguments: ${shape
    .split(',')
    .map((k) => `\`${k}\``)
    .join(', ')}).`;
}

function buildFrontmatter(pattern: Pattern, name: string, profile: DraftProfile): Record<string, unknown> {
  const purpose = describeTools(pattern.tools);
  const whenToUse = stripAngles(`When a task needs you to ${purpose}, in this order.`);
  const what = purpose.replace(/^./, (c) => c.toUpperCase());
  const description = stripAngles(
    `${what} with the procedure ${pattern.tools.join(' → ')}, repeated in ${pattern.sessions} agent sessions. Use when a task needs you to ${purpose}.`,
  ).slice(0, maxDescription);
  const origin = {
    fingerprint: pattern.fingerprint,
    sessions: String(pattern.sessions),
    source: 'skillgarden detect',
  };
  if (profile === 'runtime') {
    return {
      name,
      description,
      version: '0.1.0',
      pinned: false,
      when_to_use: whenToUse,
      metadata: origin,
    };
  }
  return {
    name,
    description,
    metadata: {
      version: '0.1.0',
      pinned: 'false',
      when_to_use: whenToUse,
      ...origin,
    },
  };
}

/** One SKILL.md draft text for a pattern. */
export function buildDraft(pattern: Pattern, name: string, options: DraftOptions = {}): DraftSkill {
  const frontmatter = stringify(buildFrontmatter(pattern, name, options.profile ?? 'spec'), { lineWidth: 0 });
  const title = name.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase());
  const steps = pattern.tools.map((token, i) => renderStep(token, i, options.shapes));
  const body = [
    `# ${title}`,
    '',
    `Drafted by skillgarden from ${pattern.sessions} agent sessions that ran the same tool sequence. Review it, name the real task, and edit the steps before adopting it.`,
    '',
    '## Steps',
    '',
    ...steps,
    '',
  ].join('\n');
  return {
    name,
    fingerprint: pattern.fingerprint,
    text: `---\n${frontmatter}---\n\n${body}`,
  };
}

/**
 * Drafts a SKILL.md per pattern, except for patterns an existing skill already
 * covers (same fingerprint in its text, or every tool named in its body).
 * Drafts are proposals: nothing is written.
 */
export function draftPatterns(
  patterns: readonly Pattern[],
  existing: readonly ExistingSkill[],
  options: DraftOptions = {},
): DetectedPattern[] {
  const taken = new Set(existing.map((skill) => skill.name));
  return patterns.map((pattern) => {
    const coveredBy = findCoveringSkill(pattern, existing);
    if (coveredBy !== undefined) return { ...pattern, coveredBy };
    const name = buildUniqueName(buildDraftName(pattern.tools), taken);
    taken.add(name);
    return { ...pattern, draft: buildDraft(pattern, name, options) };
  });
}
