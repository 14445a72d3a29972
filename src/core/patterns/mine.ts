import { buildFingerprint } from './fingerprint.js';
import { collapsePackedRuns, countWindows, packSessions, type PackedSessions } from './count-windows.js';
import { orderCandidates, type Candidate, type CandidateOrder } from './order-candidates.js';
import type { Pattern } from './types.js';

export interface MineOptions {
  /** A sequence is a candidate when seen in at least this many sessions (3). */
  minSessions?: number;
  /** Shortest and longest window (2 and 8). */
  minLength?: number;
  maxLength?: number;
  /** A candidate whose token set has at least this Jaccard similarity with a better one is dropped (0.7). */
  jaccardThreshold?: number;
  /** At most this many patterns (100). */
  limit?: number;
  /** Which candidates win de-duplication and the limit (`surprise`); see CandidateOrder. */
  order?: CandidateOrder;
  /** Collapse runs of one token before windowing (true). */
  collapseRuns?: boolean;
  /** Injected hash, for callers that cannot use node:crypto. */
  fingerprint?: (tokens: readonly string[]) => string;
}

/**
 * Sessions as interned tokens (non-negative integers); `vocabulary[id]` names token `id`. Either one array
 * per session or already packed end to end: a million sessions are a million typed arrays otherwise.
 */
export type MineInput = { vocabulary: readonly string[] } & ({ sessions: readonly ArrayLike<number>[] } | { packed: PackedSessions });

export function buildJaccard(a: readonly number[], b: readonly number[]): number {
  const setA = new Set(a);
  const setB = new Set(b);
  let shared = 0;
  for (const token of setA) if (setB.has(token)) shared += 1;
  return shared / (setA.size + setB.size - shared);
}

function selectDistinct(candidates: Iterable<Candidate>, threshold: number, limit: number): Candidate[] {
  const kept: Candidate[] = [];
  for (const candidate of candidates) {
    if (kept.length >= limit) break;
    if (kept.every((other) => buildJaccard(candidate.ids, other.ids) < threshold)) kept.push(candidate);
  }
  return kept;
}

function roundScore(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/**
 * Mines repeated tool-call sequences (DESIGN §7): every contiguous window of
 * length 2–8, counted once per session; candidates seen in ≥ minSessions
 * sessions; those contained in a longer candidate with the same sessions
 * dropped; near-duplicates (Jaccard of token sets) dropped;
 * `confidence = min(1, ln(freq)/ln(3)) × (1 − max Jaccard with the other patterns)`.
 * Ordered by confidence, then sessions.
 */
export function minePatterns(input: MineInput, options: MineOptions = {}): Pattern[] {
  const minSessions = Math.max(1, options.minSessions ?? 3);
  const given = 'packed' in input ? input.packed : packSessions(input.sessions);
  const packed = options.collapseRuns === false ? given : collapsePackedRuns(given);
  const levels = countWindows(packed, {
    minSessions,
    maxLength: options.maxLength ?? 8,
  });
  const candidates = orderCandidates(
    {
      levels,
      vocabulary: input.vocabulary,
      packed,
      minLength: options.minLength ?? 2,
    },
    options.order ?? 'surprise',
  );
  const kept = selectDistinct(candidates, options.jaccardThreshold ?? 0.7, options.limit ?? 100);
  const fingerprint = options.fingerprint ?? buildFingerprint;
  const patterns = kept.map((candidate) => {
    const overlap = Math.max(0, ...kept.filter((o) => o !== candidate).map((o) => buildJaccard(candidate.ids, o.ids)));
    const tools = candidate.ids.map((id) => input.vocabulary[id] ?? '');
    const support = Math.min(1, Math.log(candidate.sessions) / Math.log(3));
    return {
      tools,
      sessions: candidate.sessions,
      confidence: roundScore(support * (1 - overlap)),
      fingerprint: fingerprint(tools),
    };
  });
  return patterns.sort((a, b) => b.confidence - a.confidence || b.sessions - a.sessions || (a.fingerprint < b.fingerprint ? -1 : 1));
}

/** Convenience for tests and small inputs: sessions as token strings. */
export function minePatternsFromTokens(sessions: readonly (readonly string[])[], options: MineOptions = {}): Pattern[] {
  const ids = new Map<string, number>();
  const vocabulary: string[] = [];
  const intern = (token: string) => {
    let id = ids.get(token);
    if (id === undefined) {
      id = vocabulary.length;
      ids.set(token, id);
      vocabulary.push(token);
    }
    return id;
  };
  return minePatterns({ sessions: sessions.map((s) => Int32Array.from(s, intern)), vocabulary }, options);
}
