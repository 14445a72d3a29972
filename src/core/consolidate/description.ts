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

/** Triggers of all members that state one, de-duplicated (case and spacing aside), in member order. */
export function mergeTriggers(members: readonly DescribedMember[], seen: Iterable<string> = []): string[] {
  const keys = new Set([...seen].map(triggerKey));
  const out: string[] = [];
  for (const member of members) {
    const trigger = readTrigger(member);
    if (trigger === undefined || keys.has(triggerKey(trigger))) continue;
    keys.add(triggerKey(trigger));
    out.push(trigger);
  }
  return out;
}

function triggerKey(trigger: string): string {
  return trigger.toLowerCase().replace(/\W+/g, ' ').trim();
}

export interface UmbrellaWording {
  description: string;
  /** Every member's trigger, when they do not all fit in the description. */
  whenToUse?: string;
}

/** `Use when a; when b; or when c.` (`Also use when …` after a description that states its own). */
function triggerSentence(triggers: readonly string[], also: boolean): string {
  if (triggers.length === 0) return '';
  const clauses = triggers.map((t, i) => (i === 0 || /^(for|if|before|after) /.test(t) ? t : `when ${t}`));
  const list = clauses.length === 1 ? clauses[0] : `${clauses.slice(0, -1).join('; ')}; or ${clauses[clauses.length - 1]}`;
  const verb = /^(for|if|before|after) /.test(triggers[0] as string) ? '' : 'when ';
  return `${also ? 'Also use' : 'Use'} ${verb}${list}.`;
}

/** What a member does, as a sentence of its own: its description's first sentence unless that is its trigger. */
function taskSentence(member: DescribedMember, size: number): string | undefined {
  const sentence = firstSentence(member.description).trim();
  if (sentence === '' || triggerStart.test(sentence.slice(0, 40))) return undefined;
  const fitted = fitDescription(sentence, size);
  return /[.!?…]$/.test(fitted) ? fitted : `${fitted}.`;
}

/** A text that ends a sentence, so the next one can follow (`…implementation code Also covers` was the bug). */
function closeSentence(text: string): string {
  const clean = collapse(text.replace(/[<>]/g, ''));
  return clean === '' || /[.!?…]$/.test(clean) ? clean : `${clean}.`;
}

/**
 * A description written for discovery (#15, #29): what the umbrella is (its
 * own description, or the topic), one sentence per facet in the member's own
 * words (its task phrase), and every member's trigger in one `Use when …`
 * sentence, within 1,024 characters. Where the triggers do not all fit, the
 * description keeps what fits and the whole list goes to `when_to_use`.
 */
export function buildUmbrellaDescription(input: { topic: string; base?: string; members: readonly DescribedMember[] }): UmbrellaWording {
  const base = input.base !== undefined && input.base.trim() !== '' ? closeSentence(input.base) : undefined;
  const baseTrigger = base === undefined ? undefined : readTrigger({ name: '', description: base });
  const triggers = mergeTriggers(input.members, baseTrigger === undefined ? [] : [baseTrigger]);
  const uses = triggerSentence(triggers, baseTrigger !== undefined);
  const head = base ?? `${input.topic}.`;
  const facets = (size: number) => {
    const said = new Set([head.toLowerCase()]);
    return input.members.flatMap((m) => {
      const sentence = size === 0 ? undefined : taskSentence(m, size);
      if (sentence === undefined || [...said].some((s) => s.includes(sentence.toLowerCase().replace(/[.…]$/, '')))) return [];
      said.add(sentence.toLowerCase());
      return [sentence];
    });
  };
  for (const size of [200, 120, 60, 0]) {
    const text = [head, ...facets(size), uses].filter((x) => x !== '').join(' ');
    if (withinCodePoints(text, maxDescriptionLength)) return { description: text };
  }
  const room = maxDescriptionLength - [...head].length - 1;
  const description = room > 40 && uses !== '' ? `${head} ${fitDescription(uses, room)}` : fitDescription(head);
  return { description, ...(uses === '' ? {} : { whenToUse: uses }) };
}
