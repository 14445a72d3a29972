import { maxDescriptionLength } from '../rules/index.js';
import { collapseWhitespace } from './markdown.js';

/** `text.replace(/\s+/g, ' ').trim()`, without rebuilding a text whose spaces are single already (most are). */
function collapse(text: string): string {
  return collapseWhitespace(text, 0, text.length);
}

/** Code-point aware cut at a word boundary, marked with an ellipsis. */
export function fitDescription(text: string, max = maxDescriptionLength): string {
  const clean = collapse(text);
  // A string has no more code points than UTF-16 units: a short one needs no split into code points.
  if (clean.length <= max) return clean;
  const points = [...clean];
  if (points.length <= max) return clean;
  const head = points.slice(0, max - 1).join('');
  const space = head.lastIndexOf(' ');
  return `${(space > max / 2 ? head.slice(0, space) : head).replace(/[\s,;:.]+$/, '')}…`;
}

/** Whether the text has at most `max` code points (as `[...text].length <= max`), without splitting a short text. */
function withinCodePoints(text: string, max: number): boolean {
  return text.length <= max || [...text].length <= max;
}

/** The first sentence of a description, without angle brackets (the spec forbids them), at most `max` characters. */
export function firstClause(description: string, max: number): string {
  return fitDescription(firstSentence(description), max);
}

/** What firstClause fits: the first sentence, without angle brackets and its closing mark (the same for every length). */
function firstSentence(description: string): string {
  const clean = collapse(description.replace(/[<>]/g, ''));
  const sentence = /^(.+?[.!?])(\s|$)/.exec(clean)?.[1] ?? clean;
  return sentence.replace(/[.!?]$/, '');
}

export interface DescribedMember {
  name: string;
  description: string;
  /** The member's own `when_to_use`, when it has one. */
  whenToUse?: string;
}

const triggerStart =
  /\b(?:use (?:this skill |this |it )?(?:when|whenever|for|if|before|after)|trigger(?:s|ed)? (?:when|on)|invoke (?:when|for))\b/i;

/**
 * A member's trigger: the "Use when …" sentence of its description (or its
 * when_to_use), the condition only (`the user asks for a rebase`); undefined
 * when it states none.
 */
export function readTrigger(member: DescribedMember): string | undefined {
  for (const text of [member.description, member.whenToUse ?? '']) {
    const clean = collapse(text.replace(/[<>]/g, ''));
    const match = triggerStart.exec(clean);
    if (match === null) continue;
    const rest = clean.slice(match.index + match[0].length).trim();
    const sentence = (/^(.+?[.!?])(\s|$)/.exec(rest)?.[1] ?? rest).replace(/[.!?]$/, '').trim();
    const verb = match[0].toLowerCase().split(' ').pop() as string;
    if (sentence !== '') return verb === 'when' || verb === 'whenever' ? sentence : `${verb} ${sentence}`;
  }
  return undefined;
}

/** Triggers of all members, de-duplicated (case and spacing aside), in member order. */
export function mergeTriggers(members: readonly DescribedMember[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const member of members) {
    const trigger = readTrigger(member) ?? firstClause(member.description, 200).replace(/^./, (c) => c.toLowerCase());
    const key = trigger.toLowerCase().replace(/\W+/g, ' ').trim();
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(trigger);
  }
  return out;
}

export interface UmbrellaWording {
  description: string;
  /** Every member's trigger, when they do not all fit in the description. */
  whenToUse?: string;
}

function triggerSentence(triggers: readonly string[]): string {
  if (triggers.length === 0) return '';
  if (triggers.length === 1) return `Use when ${triggers[0]}.`;
  return `Use when ${triggers.slice(0, -1).join('; ')}; or ${triggers[triggers.length - 1]}.`;
}

/**
 * A description written for discovery (#15): what the umbrella covers (one
 * clause per member) and every member's trigger, merged and de-duplicated,
 * within 1,024 characters. It claims nothing the umbrella does not hold. Where
 * the triggers do not all fit, the description keeps what fits and the whole
 * list goes to `when_to_use`.
 */
export function buildUmbrellaDescription(input: { topic: string; base?: string; members: readonly DescribedMember[] }): UmbrellaWording {
  const triggers = mergeTriggers(input.members);
  const uses = triggerSentence(triggers);
  // Each member's first sentence found once, then fitted to each length tried.
  const sentences = input.members.map((m) => firstSentence(m.description));
  const covers = (size: number) => {
    const clauses = input.members
      .map((m, i) => (size === 0 ? m.name : `${m.name} (${fitDescription(sentences[i] as string, size)})`))
      .join('; ');
    return input.base !== undefined ? `${input.base.trim()} Also covers: ${clauses}.` : `${input.topic}: covers ${clauses}.`;
  };
  for (const size of [160, 100, 60, 0]) {
    const text = `${covers(size)} ${uses}`.trim();
    if (withinCodePoints(text, maxDescriptionLength)) return { description: text };
  }
  const head = covers(0);
  const room = maxDescriptionLength - [...head].length - 1;
  const description = room > 40 ? `${head} ${fitDescription(uses, room)}` : fitDescription(head);
  return { description, whenToUse: uses };
}
