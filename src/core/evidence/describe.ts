import { maxDescriptionLength } from '../rules/text-rules.js';
import { findTaskWords, listTaskWords } from '../patterns/task-words.js';

/**
 * Claude Code cuts a skill's listing entry (description and `when_to_use` together) at 1,536 characters: a
 * trigger added past it is never read.
 */
export const maxListingEntry = 1536;

/** A trigger phrase longer than this is not a phrase but a person's request: its words are listed instead. */
const maxPhraseWords = 10;
const maxPhraseChars = 80;

export interface DescribeInput {
  description: string;
  when_to_use?: string;
  /** What people asked in the sessions that needed the skill and did not load it (redacted by the reader). */
  requests: readonly string[];
}

export interface DescribeProposal {
  description: string;
  when_to_use?: string;
  /** The trigger sentence added, as it reads. */
  added: string;
  /** How many of the requests the old wording's words catch, and the new one's (`catchesRequest`). */
  before: number;
  after: number;
  requests: number;
}

const stem = (word: string) => (word.length > 4 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word);

function wordsOf(text: string): Set<string> {
  return new Set(listTaskWords(text).map(stem));
}

/**
 * Whether a wording catches a request: at least half of the request's task words (one at least) are words of the
 * description and `when_to_use`. A listing is matched on words, so this is what a description can do for it.
 */
export function catchesRequest(wording: ReadonlySet<string>, request: string): boolean {
  const words = [...new Set(listTaskWords(request).map(stem))];
  if (words.length === 0) return false;
  return words.filter((w) => wording.has(w)).length >= Math.ceil(words.length / 2);
}

export function countCaught(wording: string, requests: readonly string[]): number {
  const words = wordsOf(wording);
  return requests.filter((r) => catchesRequest(words, r)).length;
}

function clean(text: string): string {
  return text
    .replace(/[<>"`]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.,;:!?]+$/, '');
}

/** The trigger sentence: the requests' typical clause when it is short, else the words they share. */
function buildTrigger(requests: readonly string[], known: ReadonlySet<string>): string | undefined {
  const task = requests.length >= 2 ? findTaskWords(requests.map((r) => [r])) : undefined;
  const words = task && task.words.length > 0 ? task.words : listTaskWords(requests[0] ?? '').slice(0, 6);
  if (words.length === 0 || words.every((w) => known.has(stem(w)))) return undefined;
  const phrase = task?.phrase === undefined ? undefined : clean(task.phrase);
  const short = phrase !== undefined && phrase.split(' ').length <= maxPhraseWords && phrase.length <= maxPhraseChars;
  if (short) {
    const rest = words.filter((w) => !wordsOf(phrase).has(stem(w)) && !known.has(stem(w)));
    return `Use when asked to ${phrase}${rest.length > 0 ? ` (${rest.slice(0, 6).join(', ')})` : ''}.`;
  }
  return `Use when a request speaks of ${words.slice(0, 8).join(', ')}.`;
}

function join(text: string, sentence: string): string {
  const base = text.trimEnd();
  return base === '' ? sentence : `${base}${/[.!?]$/.test(base) ? '' : '.'} ${sentence}`;
}

/**
 * A new description (or `when_to_use`) that adds the words people used when they needed the skill and did not load
 * it. The old text is kept whole (every existing trigger stays), the added sentence is the requests' typical clause
 * or their shared words (never a whole long request), within the spec's 1,024 characters for the description and
 * Claude Code's listing entry. Undefined when nothing new would be said or it does not fit. Deterministic.
 */
export function buildDescribeProposal(input: DescribeInput): DescribeProposal | undefined {
  const old = `${input.description} ${input.when_to_use ?? ''}`;
  const trigger = buildTrigger(input.requests, wordsOf(old));
  if (trigger === undefined) return undefined;
  const before = countCaught(old, input.requests);
  const entry = (description: string, whenToUse = input.when_to_use) => description.length + (whenToUse?.length ?? 0);
  const description = join(input.description, trigger);
  let proposal: Omit<DescribeProposal, 'after'> | undefined;
  if (description.length <= maxDescriptionLength && entry(description) <= maxListingEntry)
    proposal = {
      description,
      ...(input.when_to_use === undefined ? {} : { when_to_use: input.when_to_use }),
      added: trigger,
      before,
      requests: input.requests.length,
    };
  else {
    // The description is full: the trigger goes to when_to_use, which Claude Code lists after it.
    const whenToUse = join(input.when_to_use ?? '', trigger);
    if (entry(input.description, whenToUse) <= maxListingEntry)
      proposal = { description: input.description, when_to_use: whenToUse, added: trigger, before, requests: input.requests.length };
  }
  if (proposal === undefined) return undefined;
  return { ...proposal, after: countCaught(`${proposal.description} ${proposal.when_to_use ?? ''}`, input.requests) };
}

/**
 * Why `buildDescribeProposal` proposes nothing for these requests, in a reviewer's words: the description already
 * holds the words people asked with (the misses are not the wording's: the listing may drop it, or the agent chose
 * not to load it), or the new wording would not fit the limits.
 */
export function explainNoDescribe(input: DescribeInput): string {
  const known = wordsOf(`${input.description} ${input.when_to_use ?? ''}`);
  if (buildTrigger(input.requests, known) !== undefined)
    return `the added trigger would pass ${maxDescriptionLength} characters for the description and ${maxListingEntry} for the listing entry`;
  // Only words the description holds are named: nothing of a request's own text reaches the report this way.
  const held = [...new Set(input.requests.flatMap((r) => listTaskWords(r)))].filter((w) => known.has(stem(w))).slice(0, 6);
  return held.length === 0
    ? 'the requests that missed it share no task words to add'
    : `its description already holds the words people asked with (${held.join(', ')}): new wording would not change what a listing matches`;
}
