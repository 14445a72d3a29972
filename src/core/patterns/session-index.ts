import { callStepDetail } from './shape.js';
import { buildToken } from './tokens.js';
import type { SessionRequest, ToolCall } from './types.js';

/** What the drafter reads of a call: what it worked on, and when. */
export type EvidenceCall = Pick<ToolCall, 'detail' | 'chain' | 'time'>;

/** A session as the drafter reads it: its calls (for details and times) and what the person asked. */
export interface EvidenceSession {
  id: string;
  file: string;
  calls: readonly EvidenceCall[];
  requests: readonly SessionRequest[];
  /** Skills the session loaded (Skill tool, slash command, a read of its SKILL.md). */
  loaded?: readonly string[];
}

/** A session as mined: its calls whole, for their tokens. */
export type MinedSession = Omit<EvidenceSession, 'calls'> & { calls: readonly ToolCall[] };

/**
 * The sessions' calls as the miner saw them (runs of one token collapsed), tokenized once for every
 * pattern a run drafts: searching each pattern's occurrences in the calls themselves built every call's
 * token again per pattern, which took most of `detect`'s 20-odd seconds at 2 million calls.
 * Sessions are read by number through it, never as objects: a pattern seen in 400,000 sessions built an
 * object per session and per step, which doubled `detect`'s peak memory over a million tiny sessions.
 */
export interface SessionIndex {
  count: number;
  id(s: number): string;
  file(s: number): string;
  /** How many calls session s made; a call's detail and time by its index in the session. */
  callCount(s: number): number;
  detail(s: number, call: number): string | undefined;
  time(s: number, call: number): string | undefined;
  /** That time as `Date.parse` reads it: NaN when there is none or it is not a time. */
  timeMs(s: number, call: number): number;
  requests(s: number): readonly SessionRequest[];
  firstRequest(s: number): string | undefined;
  loaded(s: number): readonly string[] | undefined;
  tokenIds: ReadonlyMap<string, number>;
  /** Collapsed token ids, the sessions end to end: `starts[s]..starts[s + 1]` are session s's. */
  tokens: Int32Array;
  starts: Int32Array;
  /** Per collapsed token, the index of its run's first call in its session. */
  runStarts: Int32Array;
}

export function isIndex(sessions: SessionIndex | readonly MinedSession[]): sessions is SessionIndex {
  return !Array.isArray(sessions);
}

/** The plain index: sessions held whole, each call tokenized. */
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
  const session = (s: number) => sessions[s] as MinedSession;
  return {
    count: sessions.length,
    id: (s) => session(s).id,
    file: (s) => session(s).file,
    callCount: (s) => session(s).calls.length,
    detail: (s, i) => {
      const call = session(s).calls[i];
      return call === undefined ? undefined : callStepDetail(call);
    },
    time: (s, i) => session(s).calls[i]?.time,
    timeMs: (s, i) => Date.parse(session(s).calls[i]?.time ?? ''),
    requests: (s) => session(s).requests,
    firstRequest: (s) => session(s).requests[0]?.text,
    loaded: (s) => session(s).loaded,
    tokenIds,
    tokens: tokens.subarray(0, at),
    starts,
    runStarts: runStarts.subarray(0, at),
  };
}

/** One place a sequence occurs: a session, and where in its collapsed tokens (`SessionIndex.tokens`) the sequence starts. */
export interface Occurrence {
  session: number;
  at: number;
}

/** The calls of an occurrence's step `step` (a run of one token): indexes in its session, `from` included, `to` not. */
export function stepCalls(index: SessionIndex, occurrence: Occurrence, step: number): { from: number; to: number } {
  const p = occurrence.at + step;
  const end = index.starts[occurrence.session + 1] as number;
  const from = index.runStarts[p] as number;
  const to = p + 1 < end ? (index.runStarts[p + 1] as number) : index.callCount(occurrence.session);
  return { from, to };
}

/** Call indexes of each of an occurrence's `length` steps. */
export function occurrenceSteps(index: SessionIndex, occurrence: Occurrence, length: number): number[][] {
  return Array.from({ length }, (_, step) => {
    const { from, to } = stepCalls(index, occurrence, step);
    return Array.from({ length: to - from }, (_, i) => from + i);
  });
}

/** Where the sequence of tokens `tools` occurs, runs collapsed, in every session (overlapping occurrences included). */
export function findOccurrences(tools: readonly string[], index: SessionIndex): Occurrence[] {
  const ids = tools.map((tool) => index.tokenIds.get(tool) ?? -1);
  const out: Occurrence[] = [];
  if (ids.length === 0 || ids.includes(-1)) return out;
  const { tokens, starts } = index;
  const head = ids[0] as number;
  for (let s = 0; s < index.count; s += 1) {
    const end = starts[s + 1] as number;
    for (let p = starts[s] as number; p + ids.length <= end; p += 1) {
      if (tokens[p] !== head) continue;
      let j = 1;
      while (j < ids.length && tokens[p + j] === ids[j]) j += 1;
      if (j === ids.length) out.push({ session: s, at: p });
    }
  }
  return out;
}

/** One occurrence's details at a step, at most three distinct ones joined by ` && ` (undefined when the step has none). */
export function stepKey(index: SessionIndex, occurrence: Occurrence, step: number): string | undefined {
  const run: string[] = [];
  const { from, to } = stepCalls(index, occurrence, step);
  for (let i = from; i < to; i += 1) {
    const detail = index.detail(occurrence.session, i);
    if (detail !== undefined && run[run.length - 1] !== detail) run.push(detail);
  }
  return run.length === 0 ? undefined : run.slice(0, 3).join(' && ');
}
