import { findTaskWords, type TaskWords } from './task-words.js';
import { buildToken } from './tokens.js';
import { groupVaryingDetails, type DetailGroup } from './vary.js';
import { pickRepresentative, stepKey, type Representative } from './representative.js';
import type { DraftEnding, DraftEvidence, SessionRequest, ToolCall } from './types.js';

/** What the drafter reads of a call: what it worked on, and when. */
export type EvidenceCall = Pick<ToolCall, 'detail' | 'time'>;

/** A session as the drafter reads it: its calls (for details and times) and what the person asked. */
export interface EvidenceSession {
  id: string;
  file: string;
  calls: readonly EvidenceCall[];
  requests: readonly SessionRequest[];
  /** Skills the session loaded (Skill tool, slash command, a read of its SKILL.md). */
  loaded?: readonly string[];
}

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

export interface Occurrence {
  session: EvidenceSession;
  /** Call indexes of each step (a step is a run of one token). */
  steps: number[][];
}

/**
 * The sessions' calls as the miner saw them (runs of one token collapsed), tokenized once for every
 * pattern a run drafts: searching each pattern's occurrences in the calls themselves built every call's
 * token again per pattern, which took most of `detect`'s 20-odd seconds at 2 million calls.
 */
export interface SessionIndex {
  /** How many sessions; `session(s)` is session s (the same object or a new one built for each call). */
  count: number;
  session(s: number): EvidenceSession;
  /** Session s's id and first request, read without building it. */
  id(s: number): string;
  firstRequest(s: number): string | undefined;
  tokenIds: ReadonlyMap<string, number>;
  /** Collapsed token ids, the sessions end to end: `starts[s]..starts[s + 1]` are session s's. */
  tokens: Int32Array;
  starts: Int32Array;
  /** Per collapsed token, the index of its run's first call in its session. */
  runStarts: Int32Array;
}

/** A session as mined: its calls whole, for their tokens. */
export type MinedSession = Omit<EvidenceSession, 'calls'> & { calls: readonly ToolCall[] };

export function indexSessions(sessions: readonly MinedSession[], refine = true): SessionIndex {
  const tokenIds = new Map<string, number>();
  const total = sessions.reduce((sum, session) => sum + session.calls.length, 0);
  const tokens = new Int32Array(total);
  const runStarts = new Int32Array(total);
  const starts = new Int32Array(sessions.length + 1);
  let at = 0;
  sessions.forEach((session, s) => {
    starts[s] = at;
    const first = at;
    session.calls.forEach((call, i) => {
      const token = buildToken(call, { refine });
      let id = tokenIds.get(token);
      if (id === undefined) tokenIds.set(token, (id = tokenIds.size));
      if (at > first && tokens[at - 1] === id) return;
      tokens[at] = id;
      runStarts[at] = i;
      at += 1;
    });
  });
  starts[sessions.length] = at;
  return {
    count: sessions.length,
    session: (s) => sessions[s] as EvidenceSession,
    id: (s) => (sessions[s] as EvidenceSession).id,
    firstRequest: (s) => sessions[s]?.requests[0]?.text,
    tokenIds,
    tokens: tokens.subarray(0, at),
    starts,
    runStarts: runStarts.subarray(0, at),
  };
}

export function isIndex(sessions: SessionIndex | readonly MinedSession[]): sessions is SessionIndex {
  return !Array.isArray(sessions);
}

/** Where the sequence of tokens `tools` occurs, runs collapsed, in every session (overlapping occurrences included). */
export function findOccurrences(tools: readonly string[], index: SessionIndex): Occurrence[] {
  const ids = tools.map((tool) => index.tokenIds.get(tool) ?? -1);
  const out: Occurrence[] = [];
  if (ids.length === 0 || ids.includes(-1)) return out;
  const { tokens, starts, runStarts } = index;
  const head = ids[0] as number;
  for (let s = 0; s < index.count; s += 1) {
    const start = starts[s] as number;
    const end = starts[s + 1] as number;
    // One object per session, however many times the sequence occurs in it (the loaded skills count sessions by it).
    let session: EvidenceSession | undefined;
    for (let p = start; p + ids.length <= end; p += 1) {
      if (tokens[p] !== head) continue;
      let j = 1;
      while (j < ids.length && tokens[p + j] === ids[j]) j += 1;
      if (j < ids.length) continue;
      const current = (session ??= index.session(s));
      const steps = ids.map((_, k) => {
        const from = runStarts[p + k] as number;
        const to = p + k + 1 < end ? (runStarts[p + k + 1] as number) : current.calls.length;
        return Array.from({ length: to - from }, (_, i) => from + i);
      });
      out.push({ session: current, steps });
    }
  }
  return out;
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
function countDetails(occurrences: readonly Occurrence[], step: number): DetailGroup[] {
  const counts = new Map<string, number>();
  for (const occurrence of occurrences) {
    const key = stepKey(occurrence, step);
    if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return groupVaryingDetails([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}

/** What each session asked before its first occurrence of the sequence (or its first request, when it asked later). */
function askedBefore(occurrences: readonly Occurrence[]): Map<string, string[]> {
  const asked = new Map<string, string[]>();
  for (const { session, steps } of occurrences) {
    if (asked.has(session.id)) continue;
    const start = steps[0]?.[0] ?? 0;
    const before = session.requests.filter((r) => r.at <= start).map((r) => r.text);
    asked.set(session.id, before.length > 0 ? before : session.requests.slice(0, 1).map((r) => r.text));
  }
  return asked;
}

/** The earliest and the latest time of the occurrences' calls (the first seen of equal earliest ones, the last seen of equal latest). */
function timeRange(occurrences: readonly Occurrence[]): { first?: string; last?: string } {
  let first: [string, number] | undefined;
  let last: [string, number] | undefined;
  for (const { session, steps } of occurrences)
    for (const step of steps)
      for (const i of step) {
        const time = session.calls[i]?.time;
        const ms = time === undefined ? NaN : Date.parse(time);
        if (time === undefined || Number.isNaN(ms)) continue;
        if (first === undefined || ms < first[1]) first = [time, ms];
        if (last === undefined || ms >= last[1]) last = [time, ms];
      }
  return first === undefined || last === undefined ? {} : { first: first[0], last: last[0] };
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
  const occurrences = findOccurrences(tools, isIndex(sessions) ? sessions : indexSessions(sessions, refine));
  const ids = [...new Set(occurrences.map((o) => o.session.id))];
  const files = [...new Set(occurrences.map((o) => o.session.file))].sort();
  const groups = tools.map((_, step) => countDetails(occurrences, step));
  const details = groups.map((step) => step.map((g): [string, number] => [g.detail, g.count]));
  const asked = askedBefore(occurrences);
  const task = findTaskWords([...asked.values()]);
  // A final `finish` says less than the tests or the commit just before it.
  const lastDetails = details.slice(-2).flatMap((step) => step.map(([d]) => d));
  const ending = readEnding(lastDetails, tools[tools.length - 1] ?? '');
  const { first, last } = timeRange(occurrences);
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
    for (const skill of new Set(session.loaded ?? [])) loaded.set(skill, (loaded.get(skill) ?? 0) + 1);
  const representative = pickRepresentative(occurrences, { groups, asked, task });
  return {
    evidence,
    task,
    details,
    sessionIds: new Set(ids),
    loaded: [...loaded].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)),
    ...(representative === undefined ? {} : { representative }),
  };
}
