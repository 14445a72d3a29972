/**
 * Finds every occurrence of many short literals in one pass, ASCII
 * case-insensitively: an Aho–Corasick automaton with its transitions laid out
 * as one table, so each character costs two table look-ups (its class, the
 * next state) and a compare. States that end a literal are numbered last, so
 * "does a literal end here?" is that compare. The automaton holds only the
 * first `PREFIX` characters of each literal, the rest is compared where the
 * prefix occurs: that keeps the table small enough to stay in the cache
 * (about 900 states instead of 3,400), which is what a character costs. Cheaper than one regex
 * alternation of all of them (V8 tries alternative by alternative at every
 * position) and than bucketing candidates by their first characters (the
 * previous matcher: common pairs such as `se`, `en` or `cu` sent most
 * positions down to a compare).
 */
export interface TriggerMatcher {
  /** Lower-cased literals; a literal's index is its id. */
  literals: string[];
  /** Per id: bit 1 when the character before an occurrence must not be a word character, bit 2 the same after it. */
  edges: Uint8Array;
  /** Each literal's length, by id. */
  lengths: Int32Array;
  /** The class of each UTF-16 code unit (see `buildClasses`). */
  classes: Uint8Array;
  /** Number of classes: a state's row in `delta` has this many entries. */
  width: number;
  /** The next state for `state * width + class`. State 0 is the start. */
  delta: Uint16Array;
  /** States from this number on end at least one literal. */
  firstOutput: number;
  /** For output state `s`, the ids ending there are `outIds[outStart[s - firstOutput]]` up to the next start. */
  outStart: Int32Array;
  outIds: Int32Array;
  /** Classes from this number on are the gate characters the text pass looks at (line breaks, quotes, non-ASCII…). */
  firstGate: number;
  /** -1 for classes of base64 characters (`A-Za-z0-9+/`), 0 for the others: a run counter is `(run + 1) & mask`. */
  base64Mask: Int32Array;
  /** Ids of literals that are empty or not ASCII: found with `indexOf` instead. */
  others: number[];
}

/** A literal, or one with what must surround it (see `Trigger` in regex-literals.ts). */
export type TriggerInput = string | { text: string; before: boolean; after: boolean };

/** The literal's lower-cased text: what identifies it in a matcher. */
export const triggerText = (t: TriggerInput): string => (typeof t === 'string' ? t : t.text).toLowerCase();

const edgeBits = (t: TriggerInput): number => (typeof t === 'string' ? 0 : (t.before ? 1 : 0) | (t.after ? 2 : 0));

/** How many leading characters of a literal the automaton holds. */
const PREFIX = 4;
/** How many leading characters of a literal the automaton matches (text-pass.ts primes both kinds). */
export const TRIGGER_PREFIX = PREFIX;

const isAscii = (literal: string): boolean => !/[^\x00-\x7F]/.test(literal);
const BASE64_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** The characters the line gates look at (line-gates.ts), each a class of its own at the end of the table. */
export const GATE_CHARS = '\n"\'`\\&+';

/**
 * Classes: 0 for ASCII in no literal and not base64, 1 for base64 characters
 * in no literal, then one per (lower-cased) character literals use, then one
 * per gate character, then one for every non-ASCII code unit. Upper-case
 * letters share their lower-case letter's class.
 */
function buildClasses(alphabet: ReadonlySet<number>): { classes: Uint8Array; reps: number[]; firstGate: number; mask: Int32Array } {
  const classes = new Uint8Array(65536);
  const reps: number[] = [-1, -1];
  const gates = new Set([...GATE_CHARS].map((ch) => ch.charCodeAt(0)));
  for (let code = 0; code < 128; code += 1) if (BASE64_CHARS.includes(String.fromCharCode(code))) classes[code] = 1;
  for (const code of [...alphabet].sort((a, b) => a - b)) {
    if (gates.has(code) || (code >= 65 && code <= 90)) continue;
    classes[code] = reps.length;
    if (code >= 97 && code <= 122) classes[code - 32] = reps.length;
    reps.push(code);
  }
  const firstGate = reps.length;
  for (const code of gates) {
    classes[code] = reps.length;
    reps.push(code);
  }
  classes.fill(reps.length, 128);
  reps.push(-1);
  const mask = Int32Array.from(reps, (_, c) => {
    const code = reps[c]!;
    if (c === 1) return -1;
    return code >= 0 && (BASE64_CHARS.includes(String.fromCharCode(code)) || (code >= 97 && code <= 122)) ? -1 : 0;
  });
  return { classes, reps, firstGate, mask };
}

interface Trie {
  /** Per state: child state by character code. */
  children: Map<number, number>[];
  /** Per state: the literal ids that end here (after the failure links are followed). */
  ends: number[][];
  fail: number[];
  /** States in breadth-first order. */
  order: number[];
}

function buildTrie(literals: readonly string[], ids: readonly number[]): Trie {
  const trie: Trie = { children: [new Map<number, number>()], ends: [[]], fail: [0], order: [0] };
  for (const id of ids) {
    let state = 0;
    for (const ch of literals[id]!.slice(0, PREFIX)) {
      const code = ch.charCodeAt(0);
      let next = trie.children[state]!.get(code);
      if (next === undefined) {
        next = trie.children.length;
        trie.children.push(new Map());
        trie.ends.push([]);
        trie.fail.push(0);
        trie.children[state]!.set(code, next);
      }
      state = next;
    }
    trie.ends[state]!.push(id);
  }
  // Breadth first, so a state's failure target is finished before the state.
  const { order } = trie;
  for (let k = 0; k < order.length; k += 1) {
    const state = order[k]!;
    for (const [code, child] of trie.children[state]!) {
      order.push(child);
      if (state === 0) continue;
      let f = trie.fail[state]!;
      while (f !== 0 && !trie.children[f]!.has(code)) f = trie.fail[f]!;
      const target = trie.children[f]!.get(code) ?? 0;
      trie.fail[child] = target;
      trie.ends[child]!.push(...trie.ends[target]!);
    }
  }
  return trie;
}

/**
 * The matcher for `all`. `prebuilt` is one written at build time
 * (rule-triggers.generated.ts): taken when it was built from the same
 * literals and edges, since building the table costs more at start-up, before
 * the JIT has compiled anything, than the rest of a small scan.
 */
export function buildTriggerMatcher(all: readonly TriggerInput[], prebuilt?: SerializedMatcher): TriggerMatcher {
  const literals = [...new Set(all.map(triggerText))];
  // One id per text; its edges are those every trigger with that text asks for (fewer checks wake more rules, never fewer).
  const ids = new Map(literals.map((l, id) => [l, id]));
  const edges = new Uint8Array(literals.length).fill(3);
  for (const t of all) edges[ids.get(triggerText(t))!]! &= edgeBits(t);
  if (prebuilt && prebuilt.literals === literals.join('\0') && prebuilt.edges === encode(edges)) return deserializeMatcher(prebuilt);
  const others = literals.flatMap((l, id) => (l.length === 0 || !isAscii(l) ? [id] : []));
  const inTable = literals.flatMap((l, id) => (l.length > 0 && isAscii(l) ? [id] : []));
  const alphabet = new Set<number>();
  for (const id of inTable) for (let k = 0; k < Math.min(PREFIX, literals[id]!.length); k += 1) alphabet.add(literals[id]!.charCodeAt(k));
  const { classes, reps, firstGate, mask } = buildClasses(alphabet);
  const trie = buildTrie(literals, inTable);
  // Renumber: states without output first (the start stays 0), so one compare tells an output state.
  const count = trie.children.length;
  const plainStates = trie.ends.flatMap((ends, state) => (ends.length === 0 ? [state] : []));
  const byOutput = [...plainStates, ...trie.ends.flatMap((ends, state) => (ends.length > 0 ? [state] : []))];
  const number = new Int32Array(count);
  byOutput.forEach((state, n) => (number[state] = n));
  const firstOutput = plainStates.length < count ? plainStates.length : -1;
  const width = reps.length;
  // The full transition table, breadth first: a state's row is its failure state's row (copied natively: this runs
  // at start-up, before the JIT has compiled anything), with its own children written over it.
  const column = new Map(reps.flatMap((code, c) => (code >= 0 ? [[code, c] as const] : [])));
  const delta = new Uint16Array(count * width);
  for (const state of trie.order) {
    const row = number[state]! * width;
    if (state !== 0) delta.copyWithin(row, number[trie.fail[state]!]! * width, number[trie.fail[state]!]! * width + width);
    for (const [code, child] of trie.children[state]!) delta[row + column.get(code)!] = number[child]!;
  }
  const outputs = firstOutput < 0 ? [] : byOutput.slice(firstOutput).map((state) => trie.ends[state]!);
  const outStart = new Int32Array(outputs.length + 1);
  outputs.forEach((list, k) => (outStart[k + 1] = outStart[k]! + list.length));
  return {
    literals,
    edges,
    lengths: Int32Array.from(literals, (l) => l.length),
    classes,
    width,
    delta,
    firstOutput: firstOutput < 0 ? count : firstOutput,
    outStart,
    outIds: Int32Array.from(outputs.flat()),
    firstGate,
    base64Mask: mask,
    others,
  };
}

/** A matcher as text, for rule-triggers.generated.ts: typed arrays in base64, literals joined by NUL. */
export interface SerializedMatcher {
  literals: string;
  edges: string;
  /** The classes of the ASCII codes; every other code unit has class `wide`. */
  asciiClasses: string;
  wide: number;
  width: number;
  delta: string;
  firstOutput: number;
  outStart: string;
  outIds: string;
  firstGate: number;
  base64Mask: string;
  others: readonly number[];
}

const encode = (array: Uint8Array | Uint16Array | Int32Array): string =>
  Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');
/** A copy, so the typed array is aligned whatever the offset of the decoded bytes. */
const decode = (text: string): ArrayBuffer => Uint8Array.from(Buffer.from(text, 'base64')).buffer;

export function serializeMatcher(m: TriggerMatcher): SerializedMatcher {
  return {
    literals: m.literals.join('\0'),
    edges: encode(m.edges),
    asciiClasses: encode(m.classes.subarray(0, 128)),
    wide: m.classes[128]!,
    width: m.width,
    delta: encode(m.delta),
    firstOutput: m.firstOutput,
    outStart: encode(m.outStart),
    outIds: encode(m.outIds),
    firstGate: m.firstGate,
    base64Mask: encode(m.base64Mask),
    others: m.others,
  };
}

export function deserializeMatcher(s: SerializedMatcher): TriggerMatcher {
  const literals = s.literals === '' ? [] : s.literals.split('\0');
  const classes = new Uint8Array(65536).fill(s.wide, 128);
  classes.set(new Uint8Array(decode(s.asciiClasses)));
  return {
    literals,
    edges: new Uint8Array(decode(s.edges)),
    lengths: Int32Array.from(literals, (l) => l.length),
    classes,
    width: s.width,
    delta: new Uint16Array(decode(s.delta)),
    firstOutput: s.firstOutput,
    outStart: new Int32Array(decode(s.outStart)),
    outIds: new Int32Array(decode(s.outIds)),
    firstGate: s.firstGate,
    base64Mask: new Int32Array(decode(s.base64Mask)),
    others: [...s.others],
  };
}

/** Where a text's literals occur. */
export interface TriggerHits {
  /** For each literal id, the 0-based lines (counting `\n`) it occurs on, ascending; undefined where it never occurs. */
  lines: Array<number[] | undefined>;
  /** The ids that occur at all, in order of first occurrence: most texts hold few, and callers visit only these. */
  found: number[];
}

const WORD = Uint8Array.from({ length: 128 }, (_, code) => (/[A-Za-z0-9_]/.test(String.fromCharCode(code)) ? 1 : 0));
// Past the end is not a word character; never read as NaN (a NaN in a compare made V8 recompile the text pass).
const isWordAt = (text: string, at: number): boolean => {
  if (at >= text.length) return false;
  const code = text.charCodeAt(at);
  return code < 128 && WORD[code] === 1;
};

/** Whether the occurrence of literal `id` at `start` has the edges the literal asks for. */
function edgesHold(text: string, matcher: TriggerMatcher, id: number, start: number): boolean {
  const edges = matcher.edges[id]!;
  if (edges === 0) return true;
  if ((edges & 1) !== 0 && start > 0 && isWordAt(text, start - 1)) return false;
  return (edges & 2) === 0 || !isWordAt(text, start + matcher.lengths[id]!);
}

function add(hits: TriggerHits, id: number, line: number): void {
  const list = hits.lines[id];
  if (list === undefined) {
    hits.lines[id] = [line];
    hits.found.push(id);
  } else if (list[list.length - 1] !== line) list.push(line);
}

/** Whether the rest of `literal` (past its prefix) occurs in the occurrence starting at `start`, ASCII case-insensitively. */
function restMatches(text: string, start: number, literal: string): boolean {
  if (start + literal.length > text.length) return false;
  for (let k = PREFIX; k < literal.length; k += 1) {
    const code = text.charCodeAt(start + k);
    if ((code >= 65 && code <= 90 ? code + 32 : code) !== literal.charCodeAt(k)) return false;
  }
  return true;
}

/** Records the literals whose prefix ends at `end` (state `state` is an output state) and that occur there whole. */
export function addEndingAt(hits: TriggerHits, text: string, matcher: TriggerMatcher, state: number, end: number, line: number): void {
  const k = state - matcher.firstOutput;
  for (let j = matcher.outStart[k]!; j < matcher.outStart[k + 1]!; j += 1) {
    const id = matcher.outIds[j]!;
    const length = matcher.lengths[id]!;
    const start = end - Math.min(length, PREFIX) + 1;
    if (length > PREFIX && !restMatches(text, start, matcher.literals[id]!)) continue;
    if (edgesHold(text, matcher, id, start)) add(hits, id, line);
  }
}

export const newTriggerHits = (matcher: TriggerMatcher): TriggerHits => ({
  // A holey array: filling hundreds of slots per file cost more than the look-ups.
  lines: new Array<number[] | undefined>(matcher.literals.length),
  found: [],
});

/** The literals of `text` alone (text-pass.ts finds them together with the line gates). */
export function indexTriggerLines(text: string, matcher: TriggerMatcher): TriggerHits {
  const { classes, delta, width, firstOutput } = matcher;
  const newline = classes[10]!;
  const hits = newTriggerHits(matcher);
  let state = 0;
  let line = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = classes[text.charCodeAt(i)]!;
    state = delta[state * width + c]!;
    if (state >= firstOutput) addEndingAt(hits, text, matcher, state, i, line);
    if (c === newline) line += 1;
  }
  findOthers(text, matcher, hits);
  return hits;
}

/** The literals the automaton leaves out (non-ASCII ones), by `indexOf` on the lower-cased text. */
export function findOthers(text: string, matcher: TriggerMatcher, hits: TriggerHits): void {
  if (matcher.others.length === 0) return;
  const lower = text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
  for (const id of matcher.others) {
    const literal = matcher.literals[id]!;
    let line = 0;
    let counted = 0;
    for (let at = lower.indexOf(literal); at >= 0; at = lower.indexOf(literal, at + 1)) {
      for (let k = lower.indexOf('\n', counted); k >= 0 && k < at; k = lower.indexOf('\n', k + 1)) {
        line += 1;
        counted = k + 1;
      }
      if (edgesHold(text, matcher, id, at)) add(hits, id, line);
    }
  }
}
