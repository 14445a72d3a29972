import { findTaskWords, type TaskWords } from './task-words.js';
import { groupVaryingDetails, type DetailGroup } from './vary.js';
import { pickRepresentative, type Representative } from './representative.js';
import {
  findOccurrences,
  indexSessions,
  isIndex,
  stepCalls,
  stepKey,
  type MinedSession,
  type Occurrence,
  type SessionIndex,
} from './session-index.js';
import type { DraftEnding, DraftEvidence } from './types.js';

export type { EvidenceSession } from './session-index.js';

/** Everything the sessions say about one pattern. */
export interface PatternEvidence {
  evidence: DraftEvidence;
  task: TaskWords;
  /** Per step: details seen there, most frequent first, with counts. */
  details: Array<Array<[string, number]>>;
  /** Session ids, for overlap between patterns. */
  sessionIds: ReadonlySet<string>;
  /** Skills the pattern's sessions loaded, with how many sessions loaded each, most first. */
  loaded: Array<[string, number]>;
  /** The one occurrence a draft's task phrase and steps come from (absent when the sequence never occurs). */
  representative?: Representative;
}

const testCommand =
  /^(npm|pnpm|yarn|bun|npx)( run)? (test|vitest|jest)|^(pytest|vitest|jest|tox|nox)\b|^(cargo|go|mix|dotnet|mvn|gradle|make|rake) test|^python3? -m (pytest|unittest)/;
const releaseCommand = /^(npm|pnpm|yarn) publish|^git (push|tag)|^gh release|^cargo publish|^twine upload|^(poetry|uv) publish/;

/** How a sequence ends, read from its last steps' details: tests run, a commit, a release, a submission. */
export function readEnding(lastDetails: readonly string[], lastTool: string): DraftEnding | undefined {
  const commands = lastDetails.flatMap((d) => d.split(' && '));
  if (commands.some((d) => releaseCommand.test(d))) return 'release';
  if (commands.some((d) => /^git commit\b/.test(d))) return 'commit';
  if (commands.some((d) => testCommand.test(d))) return 'tests';
  if (/submit|finish/i.test(lastTool)) return 'submit';
  return undefined;
}

/**
 * The details of one step, most frequent first. A step is a run of one token
 * (`npm test`, then `npm version patch`): a run's details count as one entry,
 * joined in order by ` && `, so the steps keep what came first.
 */
function countDetails(index: SessionIndex, occurrences: readonly Occurrence[], step: number): DetailGroup[] {
  const counts = new Map<string, number>();
  for (const occurrence of occurrences) {
    const key = stepKey(index, occurrence, step);
    if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return groupVaryingDetails([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}

/** What each session asked before its first occurrence of the sequence (or its first request, when it asked later). */
function askedBefore(index: SessionIndex, occurrences: readonly Occurrence[]): Map<string, string[]> {
  const asked = new Map<string, string[]>();
  for (const occurrence of occurrences) {
    const id = index.id(occurrence.session);
    if (asked.has(id)) continue;
    const start = stepCalls(index, occurrence, 0).from;
    const requests = index.requests(occurrence.session);
    const before = requests.filter((r) => r.at <= start).map((r) => r.text);
    asked.set(id, before.length > 0 ? before : requests.slice(0, 1).map((r) => r.text));
  }
  return asked;
}

/** The earliest and the latest time of the occurrences' calls (the first seen of equal earliest ones, the last seen of equal latest). */
function timeRange(index: SessionIndex, occurrences: readonly Occurrence[], length: number): { first?: string; last?: string } {
  // Compared as numbers; only the two kept are read back as the transcript wrote them.
  let first: { ms: number; session: number; call: number } | undefined;
  let last: { ms: number; session: number; call: number } | undefined;
  for (const occurrence of occurrences)
    // An occurrence's steps are one range of calls, in order.
    for (let i = stepCalls(index, occurrence, 0).from, to = stepCalls(index, occurrence, length - 1).to; i < to; i += 1) {
      const ms = index.timeMs(occurrence.session, i);
      if (Number.isNaN(ms)) continue;
      if (first === undefined || ms < first.ms) first = { ms, session: occurrence.session, call: i };
      if (last === undefined || ms >= last.ms) last = { ms, session: occurrence.session, call: i };
    }
  if (first === undefined || last === undefined) return {};
  return { first: index.time(first.session, first.call), last: index.time(last.session, last.call) };
}

/**
 * Reads a pattern's occurrences in the sessions: who asked what, which details recur, how it ends, when.
 * Given the sessions indexed (`indexSessions`), patterns after the first cost their occurrences, not every call again.
 */
export function buildPatternEvidence(
  tools: readonly string[],
  sessions: SessionIndex | readonly MinedSession[],
  refine = true,
): PatternEvidence {
  const index = isIndex(sessions) ? sessions : indexSessions(sessions, refine);
  const occurrences = findOccurrences(tools, index);
  const ids = [...new Set(occurrences.map((o) => index.id(o.session)))];
  const files = [...new Set(occurrences.map((o) => index.file(o.session)))].sort();
  const groups = tools.map((_, step) => countDetails(index, occurrences, step));
  const details = groups.map((step) => step.map((g): [string, number] => [g.detail, g.count]));
  const asked = askedBefore(index, occurrences);
  const task = findTaskWords([...asked.values()]);
  // A final `finish` says less than the tests or the commit just before it.
  const lastDetails = details.slice(-2).flatMap((step) => step.map(([d]) => d));
  const ending = readEnding(lastDetails, tools[tools.length - 1] ?? '');
  const { first, last } = timeRange(index, occurrences, tools.length);
  const examples = [...new Set([...asked.values()].map((texts) => texts[texts.length - 1] as string).filter((t) => t !== undefined))];
  const evidence: DraftEvidence = {
    sessions: ids,
    files,
    ...(first === undefined ? {} : { first_seen: first }),
    ...(last === undefined ? {} : { last_seen: last }),
    requests: examples.slice(0, 3).map((t) => (t.length > 200 ? `${t.slice(0, 199)}…` : t)),
    task_words: task.words,
    ...(ending === undefined ? {} : { ending }),
  };
  const loaded = new Map<string, number>();
  for (const session of new Set(occurrences.map((o) => o.session)))
    for (const skill of new Set(index.loaded(session) ?? [])) loaded.set(skill, (loaded.get(skill) ?? 0) + 1);
  const representative = pickRepresentative(index, occurrences, { groups, asked, task });
  return {
    evidence,
    task,
    details,
    sessionIds: new Set(ids),
    loaded: [...loaded].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)),
    ...(representative === undefined ? {} : { representative }),
  };
}
