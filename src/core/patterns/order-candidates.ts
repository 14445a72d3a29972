import { buildWindowTokens, type PackedSessions, type WindowLevel } from './count-windows.js';

export interface Candidate {
  ids: number[];
  sessions: number;
}

/**
 * Which candidates are preferred when the Jaccard de-duplication must choose
 * and when `limit` cuts the list. `sessions`: most sessions first.
 * `surprise` (default): sessions × ln(observed / expected sessions), where
 * "expected" is how many sessions would hold the sequence by chance given how
 * common its tools are. A pair of ubiquitous tools (`Read → Bash`) is frequent
 * but unsurprising; a 6-step procedure in 10% of sessions is the opposite.
 */
export type CandidateOrder = 'surprise' | 'sessions';

export interface OrderInput {
  levels: readonly WindowLevel[];
  vocabulary: readonly string[];
  packed: PackedSessions;
  minLength: number;
}

/** Marks windows contained in a one-longer frequent window seen in the same sessions. */
function markAbsorbed(levels: readonly WindowLevel[]): Uint8Array[] {
  const absorbed = levels.map((level) => new Uint8Array(level.sessions.length));
  for (let index = 1; index < levels.length; index += 1) {
    const level = levels[index] as WindowLevel;
    const shorter = levels[index - 1] as WindowLevel;
    const marks = absorbed[index - 1] as Uint8Array;
    for (let id = 0; id < level.sessions.length; id += 1) {
      const count = level.sessions[id] as number;
      // A sub-window occurs wherever its super-window does, so equal counts mean equal session sets.
      for (const sub of [level.prefix[id] as number, level.suffix[id] as number]) {
        if (sub >= 0 && shorter.sessions[sub] === count) marks[sub] = 1;
      }
    }
  }
  return absorbed;
}

/** Orders token-id sequences by their names, without building strings. */
function buildNameOrder(vocabulary: readonly string[]): (a: readonly number[], b: readonly number[]) => number {
  const rank = new Int32Array(vocabulary.length);
  [...vocabulary.keys()]
    .sort((x, y) => ((vocabulary[x] ?? '') < (vocabulary[y] ?? '') ? -1 : (vocabulary[x] ?? '') > (vocabulary[y] ?? '') ? 1 : 0))
    .forEach((id, position) => (rank[id] = position));
  return (a, b) => {
    for (let i = 0; i < a.length && i < b.length; i += 1) {
      const diff = (rank[a[i] as number] as number) - (rank[b[i] as number] as number);
      if (diff !== 0) return diff;
    }
    return a.length - b.length;
  };
}

/** Every candidate as (level index, window id). */
function listCandidates(levels: readonly WindowLevel[], minLength: number): [index: number, id: number][] {
  const absorbed = markAbsorbed(levels);
  const out: [number, number][] = [];
  levels.forEach((level, index) => {
    if (level.length < minLength) return;
    const marks = absorbed[index] as Uint8Array;
    for (let id = 0; id < level.sessions.length; id += 1) if (marks[id] === 0) out.push([index, id]);
  });
  return out;
}

/** ln P(window) under independence, per level, built from the prefix's: no token arrays. */
function buildLogProbabilities(input: OrderInput): Float64Array[] {
  const { tokens } = input.packed;
  const logFrequency = new Float64Array(tokens.reduce((max, token) => Math.max(max, token + 1), input.vocabulary.length));
  for (const token of tokens) logFrequency[token] = (logFrequency[token] as number) + 1;
  logFrequency.forEach((count, token) => (logFrequency[token] = Math.log(count / tokens.length)));
  const out: Float64Array[] = [];
  input.levels.forEach((level, index) => {
    const shorter = out[index - 1];
    out.push(
      Float64Array.from(level.last, (last, id) => {
        const prefix = level.prefix[id] as number;
        return (logFrequency[last] as number) + (shorter === undefined ? (logFrequency[prefix] as number) : (shorter[prefix] as number));
      }),
    );
  });
  return out;
}

/** Scores each candidate by how much more often it occurs than chance would have it. */
function buildSurprise(input: OrderInput, candidates: readonly [number, number][]): Float64Array {
  const { starts } = input.packed;
  const lengths = Array.from({ length: starts.length - 1 }, (_, s) => (starts[s + 1] as number) - (starts[s] as number));
  const chance = input.levels.map((level) => {
    const long = lengths.filter((n) => n >= level.length);
    return {
      sessions: long.length,
      positions: long.reduce((sum, n) => sum + n - level.length + 1, 0) / Math.max(1, long.length),
    };
  });
  const logProbability = buildLogProbabilities(input);
  return Float64Array.from(candidates, ([index, id]) => {
    const { sessions, positions } = chance[index] as {
      sessions: number;
      positions: number;
    };
    const expected = sessions * -Math.expm1(-positions * Math.exp((logProbability[index] as Float64Array)[id] as number));
    const observed = (input.levels[index] as WindowLevel).sessions[id] as number;
    return observed * Math.log(observed / Math.max(expected, 1e-9));
  });
}

/** Candidates in preference order; lazily, because selection usually stops early. */
export function* orderCandidates(input: OrderInput, order: CandidateOrder): Generator<Candidate> {
  const candidates = listCandidates(input.levels, input.minLength);
  const sessionsOf = ([index, id]: [number, number]) => (input.levels[index] as WindowLevel).sessions[id] as number;
  const lengthOf = ([index]: [number, number]) => (input.levels[index] as WindowLevel).length;
  const score = order === 'surprise' ? buildSurprise(input, candidates) : Float64Array.from(candidates, sessionsOf);
  const byName = buildNameOrder(input.vocabulary);
  const idsOf = (i: number) => buildWindowTokens(input.levels, ...(candidates[i] as [number, number]));
  const positions = Int32Array.from(candidates.keys()).sort((a, b) => {
    const ca = candidates[a] as [number, number];
    const cb = candidates[b] as [number, number];
    return (
      (score[b] as number) - (score[a] as number) ||
      sessionsOf(cb) - sessionsOf(ca) ||
      lengthOf(cb) - lengthOf(ca) ||
      byName(idsOf(a), idsOf(b))
    );
  });
  for (const i of positions)
    yield {
      ids: idsOf(i),
      sessions: sessionsOf(candidates[i] as [number, number]),
    };
}
