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
      const prefix = level.prefix[id] as number;
      const suffix = level.suffix[id] as number;
      if (prefix >= 0 && shorter.sessions[prefix] === count) marks[prefix] = 1;
      if (suffix >= 0 && shorter.sessions[suffix] === count) marks[suffix] = 1;
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

/** Every candidate as (level index, window id), in two columns: a dozen tools yield hundreds of thousands. */
interface CandidateList {
  index: Int32Array;
  id: Int32Array;
  length: number;
}

function listCandidates(levels: readonly WindowLevel[], minLength: number): CandidateList {
  const absorbed = markAbsorbed(levels);
  let length = 0;
  levels.forEach((level, index) => {
    if (level.length >= minLength) for (const mark of absorbed[index] as Uint8Array) if (mark === 0) length += 1;
  });
  const out: CandidateList = { index: new Int32Array(length), id: new Int32Array(length), length };
  let at = 0;
  levels.forEach((level, index) => {
    if (level.length < minLength) return;
    const marks = absorbed[index] as Uint8Array;
    for (let id = 0; id < level.sessions.length; id += 1) {
      if (marks[id] !== 0) continue;
      out.index[at] = index;
      out.id[at] = id;
      at += 1;
    }
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
function buildSurprise(input: OrderInput, candidates: CandidateList): Float64Array {
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
  const out = new Float64Array(candidates.length);
  for (let c = 0; c < candidates.length; c += 1) {
    const index = candidates.index[c] as number;
    const id = candidates.id[c] as number;
    const { sessions, positions } = chance[index] as { sessions: number; positions: number };
    const expected = sessions * -Math.expm1(-positions * Math.exp((logProbability[index] as Float64Array)[id] as number));
    const observed = (input.levels[index] as WindowLevel).sessions[id] as number;
    out[c] = observed * Math.log(observed / Math.max(expected, 1e-9));
  }
  return out;
}

/** Before: higher score, then more sessions, then longer, then by the tools' names. A total order: windows are distinct. */
export type CandidateComparator = (a: number, b: number) => number;

function buildComparator(input: OrderInput, candidates: CandidateList, score: Float64Array): CandidateComparator {
  const sessionsOf = (c: number) =>
    (input.levels[candidates.index[c] as number] as WindowLevel).sessions[candidates.id[c] as number] as number;
  const lengthOf = (c: number) => (input.levels[candidates.index[c] as number] as WindowLevel).length;
  const byName = buildNameOrder(input.vocabulary);
  const idsOf = (c: number) => buildWindowTokens(input.levels, candidates.index[c] as number, candidates.id[c] as number);
  return (a, b) =>
    (score[b] as number) - (score[a] as number) || sessionsOf(b) - sessionsOf(a) || lengthOf(b) - lengthOf(a) || byName(idsOf(a), idsOf(b));
}

/**
 * Yields 0..n-1 in `before` order, lazily: a binary heap built in O(n), then one
 * pop per candidate taken. Selection stops after the first few thousand (the
 * limit is 100 patterns), so this never pays for sorting all of them, which on
 * a dozen tools (380,000 candidates at 2 million calls) cost over a second.
 */
export function* heapOrder(n: number, before: CandidateComparator): Generator<number> {
  const heap = Int32Array.from({ length: n }, (_, i) => i);
  let size = n;
  const siftDown = (from: number) => {
    let at = from;
    const item = heap[at] as number;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && before(heap[right] as number, heap[left] as number) < 0 ? right : left;
      if (before(heap[child] as number, item) >= 0) break;
      heap[at] = heap[child] as number;
      at = child;
    }
    heap[at] = item;
  };
  for (let i = (size >> 1) - 1; i >= 0; i -= 1) siftDown(i);
  while (size > 0) {
    const top = heap[0] as number;
    size -= 1;
    heap[0] = heap[size] as number;
    siftDown(0);
    yield top;
  }
}

/** Candidates in preference order; lazily, because selection usually stops early. */
export function* orderCandidates(input: OrderInput, order: CandidateOrder): Generator<Candidate> {
  const candidates = listCandidates(input.levels, input.minLength);
  const sessionsOf = (c: number) =>
    (input.levels[candidates.index[c] as number] as WindowLevel).sessions[candidates.id[c] as number] as number;
  const score =
    order === 'surprise' ? buildSurprise(input, candidates) : Float64Array.from({ length: candidates.length }, (_, c) => sessionsOf(c));
  for (const c of heapOrder(candidates.length, buildComparator(input, candidates, score)))
    yield {
      ids: buildWindowTokens(input.levels, candidates.index[c] as number, candidates.id[c] as number),
      sessions: sessionsOf(c),
    };
}
