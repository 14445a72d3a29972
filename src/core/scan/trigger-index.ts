/**
 * Finds every occurrence of many short literals in one pass, ASCII
 * case-insensitively. Literals are chained by their first two characters, so
 * each position of the text costs one table lookup and, rarely, a short
 * compare: cheaper than one regex alternation of all of them, which V8 tries
 * alternative by alternative at every position.
 */
export interface TriggerMatcher {
  /** Lower-cased literals; a literal's index is its id. */
  literals: string[];
  /** For each two-character key (`c0 * 128 + c1`), the first literal id starting with it, or -1. */
  heads: Int32Array;
  /** For each key, a 128-bit set (4 words) of the third characters its literals allow; all bits for a two-character literal. */
  third: Int32Array;
  /** For each one-character literal's code, its id, or -1. */
  singles: Int32Array;
  /** The next literal id with the same key, or -1. */
  next: Int32Array;
  /** Ids of literals that are empty or not ASCII: found with `indexOf` instead. */
  others: number[];
}

const fold = (code: number): number => (code >= 65 && code <= 90 ? code + 32 : code);

export function buildTriggerMatcher(all: readonly string[]): TriggerMatcher {
  const literals = [...new Set(all.map((l) => l.toLowerCase()))];
  const heads = new Int32Array(128 * 128).fill(-1);
  const third = new Int32Array(128 * 128 * 4);
  const singles = new Int32Array(128).fill(-1);
  const next = new Int32Array(literals.length).fill(-1);
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
    next[id] = heads[key]!;
    heads[key] = id;
    if (literal.length === 2) third.fill(-1, key * 4, key * 4 + 4);
    else third[key * 4 + (literal.charCodeAt(2) >> 5)]! |= 1 << (literal.charCodeAt(2) & 31);
  });
  return { literals, heads, third, singles, next, others };
}

function matchesAt(text: string, at: number, literal: string): boolean {
  if (at + literal.length > text.length) return false;
  for (let k = 2; k < literal.length; k += 1) if (fold(text.charCodeAt(at + k)) !== literal.charCodeAt(k)) return false;
  return true;
}

function add(lines: Array<number[] | undefined>, id: number, line: number): void {
  const list = lines[id];
  if (list === undefined) lines[id] = [line];
  else if (list[list.length - 1] !== line) list.push(line);
}

/** For each literal id, the 0-based lines (counting `\n`) it occurs on, ascending; undefined where it never occurs. */
export function indexTriggerLines(text: string, matcher: TriggerMatcher): Array<number[] | undefined> {
  const { heads, third, singles, next, literals } = matcher;
  const lines = new Array<number[] | undefined>(literals.length).fill(undefined);
  let line = 0;
  let c0 = text.length > 0 ? fold(text.charCodeAt(0)) : 0;
  for (let i = 0; i < text.length; i += 1) {
    const c1 = i + 1 < text.length ? fold(text.charCodeAt(i + 1)) : 0;
    if (c0 === 10) line += 1;
    else if (c0 < 128) {
      if (singles[c0]! >= 0) add(lines, singles[c0]!, line);
      const key = c0 * 128 + c1;
      if (c1 > 0 && c1 < 128 && heads[key]! >= 0) {
        const c2 = i + 2 < text.length ? fold(text.charCodeAt(i + 2)) : 0;
        // The third character rules out most positions before any literal is compared.
        if (c2 >= 128 || (third[key * 4 + (c2 >> 5)]! & (1 << (c2 & 31))) !== 0) {
          for (let id = heads[key]!; id >= 0; id = next[id]!) if (matchesAt(text, i, literals[id]!)) add(lines, id, line);
        }
      }
    }
    c0 = c1;
  }
  for (const id of matcher.others) findOther(text, literals[id]!, (line) => add(lines, id, line));
  return lines;
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
