import { SkillgardenError } from '../errors.js';
import { excerpt } from '../findings.js';
import { findTrailerBlock, readBlockTrailers, splitGitLines, type Trailer, type TrailerBlockOptions } from './trailer-block.js';

export type SkillAction =
  | 'create'
  | 'patch'
  | 'edit'
  | 'delete'
  | 'write-file'
  | 'remove-file'
  | 'mark-stale'
  | 'reactivate'
  | 'archive'
  | 'restore'
  | 'merge'
  | 'pin'
  | 'unpin'
  | 'adopt'
  | 'usage'
  | 'rollback'
  | 'curate'
  | 'add'
  | 'update'
  | 'describe';
export type Actor = 'user' | 'agent' | 'curator';
export type Source = 'foreground' | 'background';
export interface LedgerTrailers {
  action?: SkillAction; // Skill-Action
  skills: string[]; // Skill-Name, repeated, in order
  actor: Actor; // Skill-Actor; a message with no Skill-* trailers counts as 'user'
  source?: Source; // Skill-Source
  run?: string; // Curator-Run
  reverts: string[]; // Reverts (full commit ids)
}
export interface CommitMessageParts {
  subject: string;
  body?: string;
  trailers: LedgerTrailers;
}
export type { Trailer, TrailerBlockOptions } from './trailer-block.js';

export const skillActions: readonly SkillAction[] = [
  'create',
  'patch',
  'edit',
  'delete',
  'write-file',
  'remove-file',
  'mark-stale',
  'reactivate',
  'archive',
  'restore',
  'merge',
  'pin',
  'unpin',
  'adopt',
  'usage',
  'rollback',
  'curate',
  'add',
  'update',
  'describe',
];
export const actors: readonly Actor[] = ['user', 'agent', 'curator'];
export const sources: readonly Source[] = ['foreground', 'background'];

export type LedgerMessageErrorCode = 'ledger/bad-trailer-value' | 'ledger/bad-subject' | 'ledger/bad-body';

const fullCommitId = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

function oneOf<T extends string>(allowed: readonly T[], value: string | undefined): T | undefined {
  return allowed.find((candidate) => candidate === value);
}

/**
 * Git's own rules (as `git interpret-trailers --parse`): the last paragraph, only if it is a trailer block.
 * Pass `{ divider: false }` to read a commit message as `git log --format=%(trailers)` does,
 * where a `---` line is text, not the start of a patch.
 */
export function parseTrailers(message: string, options: TrailerBlockOptions = {}): Trailer[] {
  return readBlockTrailers(findTrailerBlock(message, options));
}

/** Keys match case-insensitively, as git's `%(trailers:key=…)` does; a repeated single-valued key: the last wins. */
export function readLedgerTrailers(trailers: readonly Trailer[]): LedgerTrailers {
  const values = (key: string): string[] => trailers.filter((t) => t.key.toLowerCase() === key.toLowerCase()).map((t) => t.value);
  const last = (key: string): string | undefined => values(key).at(-1);
  const result: LedgerTrailers = {
    skills: values('Skill-Name'),
    actor: oneOf(actors, last('Skill-Actor')) ?? 'user',
    reverts: values('Reverts'),
  };
  const action = oneOf(skillActions, last('Skill-Action'));
  const source = oneOf(sources, last('Skill-Source'));
  const run = last('Curator-Run');
  if (action !== undefined) result.action = action;
  if (source !== undefined) result.source = source;
  if (run !== undefined) result.run = run;
  return result;
}

function badValue(key: string, value: string, why: string): SkillgardenError<LedgerMessageErrorCode> {
  return new SkillgardenError(
    'ledger/bad-trailer-value',
    `Trailer ${key}: "${excerpt(value)}" ${why}. Pass a single-line value without surrounding spaces.`,
    { data: { key, value } },
  );
}

function checkValue(key: string, value: string, allowed?: readonly string[]): string {
  if (/[\r\n]/.test(value)) throw badValue(key, value, 'contains a line break');
  if (value === '' || value.trim() !== value) throw badValue(key, value, 'is empty or has surrounding spaces');
  if (allowed && !allowed.includes(value)) throw badValue(key, value, `is not one of ${allowed.join(', ')}`);
  if (key === 'Reverts' && !fullCommitId.test(value)) throw badValue(key, value, 'is not a full commit id');
  return `${key}: ${value}`;
}

/** Trailer order: Skill-Action, Skill-Name (one per skill), Skill-Actor, Skill-Source, Curator-Run, Reverts. */
function buildTrailerLines(trailers: LedgerTrailers): string[] {
  const lines: string[] = [];
  if (trailers.action !== undefined) lines.push(checkValue('Skill-Action', trailers.action, skillActions));
  for (const skill of trailers.skills) lines.push(checkValue('Skill-Name', skill));
  lines.push(checkValue('Skill-Actor', trailers.actor, actors));
  if (trailers.source !== undefined) lines.push(checkValue('Skill-Source', trailers.source, sources));
  if (trailers.run !== undefined) lines.push(checkValue('Curator-Run', trailers.run));
  for (const commit of trailers.reverts) lines.push(checkValue('Reverts', commit));
  return lines;
}

/** A `---` line starts a patch and a scissors line ends a message, for git: either would hide the trailers. */
function isCutLine(line: string): boolean {
  return /^---(?:[ \t\v\f\r]|$)/.test(line) || line === '# ------------------------ >8 ------------------------';
}

function checkSubject(subject: string): void {
  if (subject.trim() === '' || /[\r\n]/.test(subject) || isCutLine(subject)) {
    throw new SkillgardenError<LedgerMessageErrorCode>(
      'ledger/bad-subject',
      `Commit subject "${excerpt(subject)}" must be one non-empty line that does not start with "---". Put details in the body.`,
      { data: { subject } },
    );
  }
}

/** Drops blank lines at both ends; inner text is kept as written. */
function trimBlankLines(lines: readonly string[]): string[] {
  let from = 0;
  let to = lines.length;
  while (from < to && (lines[from] as string).trim() === '') from++;
  while (to > from && (lines[to - 1] as string).trim() === '') to--;
  return lines.slice(from, to);
}

function normalizeBody(body: string): string {
  const lines = trimBlankLines(body.split('\n'));
  const cut = lines.findIndex(isCutLine);
  if (cut !== -1) {
    throw new SkillgardenError<LedgerMessageErrorCode>(
      'ledger/bad-body',
      `Commit body line ${cut + 1} "${excerpt(lines[cut] as string)}" would make git drop the trailers (a "---" or scissors line). Indent it or use "***".`,
      { data: { line: cut + 1 } },
    );
  }
  return lines.join('\n');
}

/** `skill(<action>): <names> — <subject>` is the caller's subject; this appends body and the trailer block. */
export function buildCommitMessage(parts: CommitMessageParts): string {
  checkSubject(parts.subject);
  const body = parts.body === undefined ? '' : normalizeBody(parts.body);
  const trailerBlock = buildTrailerLines(parts.trailers).join('\n');
  return body === '' ? `${parts.subject}\n\n${trailerBlock}\n` : `${parts.subject}\n\n${body}\n\n${trailerBlock}\n`;
}

const stripEol = (line: string): string => line.replace(/\r?\n$/, '');

/** Reads a commit message as `git log` shows it: subject (first paragraph, one line), body, ledger trailers. */
export function parseCommitMessage(message: string): { subject: string; body: string; trailers: LedgerTrailers } {
  const block = findTrailerBlock(message, { divider: false });
  const lines = splitGitLines(message);
  let first = 0;
  while (first < lines.length && (lines[first] as string).trim() === '') first++;
  let afterTitle = first;
  while (afterTitle < lines.length && (lines[afterTitle] as string).trim() !== '') afterTitle++;
  const subject = lines
    .slice(first, afterTitle)
    .map((l) => stripEol(l).trim())
    .join(' ');
  const bodyEnd = Math.max(afterTitle, block.start);
  const body = trimBlankLines(lines.slice(afterTitle, bodyEnd).map(stripEol)).join('\n');
  return { subject, body, trailers: readLedgerTrailers(readBlockTrailers(block)) };
}
