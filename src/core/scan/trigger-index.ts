/**
 * Finds every occurrence of many short literals in one pass, ASCII
 * case-insensitively. Each position costs a look-up of its two characters in
 * a small table; the few positions that can start a literal then look up
 * their first three characters, so a compare happens almost only where a
 * literal really starts. Cheaper than one regex alternation of all of them,
 * which V8 tries alternative by alternative at every position.
 */
export interface TriggerMatcher {
  /** Lower-cased literals; a literal's index is its id. */
  literals: string[];
  /** Per id: bit 1 when the character before an occurrence must not be a word character, bit 2 the same after it. */
  edges: Uint8Array;
  /** For each two-character key (`c0 * 128 + c1`): bit 1 when a two-character literal is that key, bit 2 when a longer literal starts with it. */
  pairs: Uint8Array;
  /** The two-character literal's id for each key, or -1. */
  shorts: Int32Array;
  /** For each key, a 128-bit set (4 words) of the third characters its longer literals have. */
  third: Int32Array;
  /** Longer literals by a hash of their first three characters: the first id in the bucket, or -1. */
  buckets: Int32Array;
  /** The next literal id in the same bucket, or -1. */
  next: Int32Array;
  /** For each one-character literal's code, its id, or -1. */
  singles: Int32Array;
  /** Ids of literals that are empty or not ASCII: found with `indexOf` instead. */
  others: number[];
}

const fold = (code: number): number => (code >= 65 && code <= 90 ? code + 32 : code);

/** ASCII lower-casing as a table. */
const FOLD = Uint8Array.from({ length: 128 }, (_, code) => fold(code));

const BUCKET_BITS = 12;
const bucketOf = (key: number, c2: number): number => Math.imul(key * 128 + c2, 0x9e3779b1) >>> (32 - BUCKET_BITS);

/** A literal, or one with what must surround it (see `Trigger` in regex-literals.ts). */
export type TriggerInput = string | { text: string; before: boolean; after: boolean };

/** The literal's lower-cased text: what identifies it in a matcher. */
export const triggerText = (t: TriggerInput): string => (typeof t === 'string' ? t : t.text).toLowerCase();

const edgeBits = (t: TriggerInput): number => (typeof t === 'string' ? 0 : (t.before ? 1 : 0) | (t.after ? 2 : 0));

export function buildTriggerMatcher(all: readonly TriggerInput[]): TriggerMatcher {
  const literals = [...new Set(all.map(triggerText))];
  // One id per text; its edges are those every trigger with that text asks for (fewer checks wake more rules, never fewer).
  const ids = new Map(literals.map((l, id) => [l, id]));
  const edges = new Uint8Array(literals.length).fill(3);
  for (const t of all) {
    const id = ids.get(triggerText(t))!;
    edges[id]! &= edgeBits(t);
  }
  const pairs = new Uint8Array(128 * 128);
  const shorts = new Int32Array(128 * 128).fill(-1);
  const third = new Int32Array(128 * 128 * 4);
  const buckets = new Int32Array(1 << BUCKET_BITS).fill(-1);
  const next = new Int32Array(literals.length).fill(-1);
  const singles = new Int32Array(128).fill(-1);
  const others: number[] = [];
  literals.forEach((literal, id) => {
    if (literal.length === 0 || /[^\x00-\x7F]/.test(literal)) {
      others.push(id);
      return;
    }
    if (literal.length === 1) {
      singles[literal.charCodeAt(0)] = id;
      return;
    }
    const key = literal.charCodeAt(0) * 128 + literal.charCodeAt(1);
    if (literal.length === 2) {
      pairs[key]! |= 1;
      shorts[key] = id;
      return;
    }
    const c2 = literal.charCodeAt(2);
    pairs[key]! |= 2;
    third[key * 4 + (c2 >> 5)]! |= 1 << (c2 & 31);
    const bucket = bucketOf(key, c2);
    next[id] = buckets[bucket]!;
    buckets[bucket] = id;
  });
  return { literals, edges, pairs, shorts, third, buckets, next, singles, others };
}

/** Whether `literal` (three characters or more, lower-case) occurs in `text` at `at`. */
function matchesAt(text: string, at: number, literal: string): boolean {
  if (at + literal.length > text.length) return false;
  for (let k = 0; k < literal.length; k += 1) if (fold(text.charCodeAt(at + k)) !== literal.charCodeAt(k)) return false;
  return true;
}

/** Where a text's literals occur. */
export interface TriggerHits {
  /** For each literal id, the 0-based lines (counting `\n`) it occurs on, ascending; undefined where it never occurs. */
  lines: Array<number[] | undefined>;
  /** The ids that occur at all, in order of first occurrence: most texts hold few, and callers visit only these. */
  found: number[];
}

const WORD = Uint8Array.from({ length: 128 }, (_, code) => (/[A-Za-z0-9_]/.test(String.fromCharCode(code)) ? 1 : 0));
const isWordAt = (text: string, at: number): boolean => {
  const code = text.charCodeAt(at);
  return code < 128 && WORD[code] === 1;
};

/** Whether the occurrence of literal `id` at `start` has the edges the literal asks for. */
function edgesHold(text: string, matcher: TriggerMatcher, id: number, start: number): boolean {
  const edges = matcher.edges[id]!;
  if (edges === 0) return true;
  if ((edges & 1) !== 0 && start > 0 && isWordAt(text, start - 1)) return false;
  return (edges & 2) === 0 || !isWordAt(text, start + matcher.literals[id]!.length);
}

function add(hits: TriggerHits, id: number, line: number): void {
  const list = hits.lines[id];
  if (list === undefined) {
    hits.lines[id] = [line];
    hits.found.push(id);
  } else if (list[list.length - 1] !== line) list.push(line);
}

export function indexTriggerLines(text: string, matcher: TriggerMatcher): TriggerHits {
  const { pairs, shorts, third, buckets, next, singles, literals } = matcher;
  // A holey array: filling hundreds of slots per file cost more than the look-ups.
  const hits: TriggerHits = { lines: new Array<number[] | undefined>(literals.length), found: [] };
  const length = text.length;
  let line = 0;
  // c0/c1: the folded characters at i and i + 1; 0 when not ASCII (no literal here has such a character).
  let c1 = length > 0 ? text.charCodeAt(0) : 0;
  c1 = c1 < 128 ? FOLD[c1]! : 0;
  for (let i = 0; i < length; i += 1) {
    const c0 = c1;
    const raw = i + 1 < length ? text.charCodeAt(i + 1) : 0;
    c1 = raw < 128 ? FOLD[raw]! : 0;
    if (c0 === 10) {
      line += 1;
      continue;
    }
    if (c0 === 0) continue;
    if (singles[c0]! >= 0 && edgesHold(text, matcher, singles[c0]!, i)) add(hits, singles[c0]!, line);
    const key = c0 * 128 + c1;
    const kinds = c1 === 0 ? 0 : pairs[key]!;
    if (kinds === 0) continue;
    if ((kinds & 1) !== 0 && edgesHold(text, matcher, shorts[key]!, i)) add(hits, shorts[key]!, line);
    if ((kinds & 2) === 0) continue;
    const c2raw = i + 2 < length ? text.charCodeAt(i + 2) : 0;
    if (c2raw >= 128) continue;
    const c2 = FOLD[c2raw]!;
    if ((third[key * 4 + (c2 >> 5)]! & (1 << (c2 & 31))) === 0) continue;
    for (let id = buckets[bucketOf(key, c2)]!; id >= 0; id = next[id]!)
      if (matchesAt(text, i, literals[id]!) && edgesHold(text, matcher, id, i)) add(hits, id, line);
  }
  for (const id of matcher.others) findOther(text, literals[id]!, (line) => add(hits, id, line));
  return hits;
}

function findOther(text: string, literal: string, found: (line: number) => void): void {
  const lower = text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
  let line = 0;
  let counted = 0;
  for (let at = lower.indexOf(literal); at >= 0; at = lower.indexOf(literal, at + 1)) {
    for (let k = lower.indexOf('\n', counted); k >= 0 && k < at; k = lower.indexOf('\n', k + 1)) {
      line += 1;
      counted = k + 1;
    }
    found(line);
  }
}
