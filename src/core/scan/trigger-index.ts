/**
 * Finds every occurrence of many short literals in one pass, ASCII
 * case-insensitively. The literals are bucketed by their first two characters,
 * so each position of the text costs a table lookup and, rarely, a short
 * compare: several times cheaper than one regex alternation of all of them,
 * which V8 tries alternative by alternative at every position.
 */
export interface TriggerMatcher {
  /** For each two-character key (`c0 * 128 + c1`), the literals starting with it. */
  buckets: Array<string[] | undefined>;
  /** Literals holding a non-ASCII or single character: matched with `indexOf` instead. */
  others: string[];
}

const fold = (code: number): number => (code >= 65 && code <= 90 ? code + 32 : code);

export function buildTriggerMatcher(literals: readonly string[]): TriggerMatcher {
  const buckets: Array<string[] | undefined> = new Array<string[] | undefined>(128 * 128).fill(undefined);
  const others: string[] = [];
  for (const literal of new Set(literals.map((l) => l.toLowerCase()))) {
    const c0 = literal.charCodeAt(0);
    const c1 = literal.charCodeAt(1);
    if (literal.length < 2 || /[^\x00-\x7F]/.test(literal)) {
      others.push(literal);
      continue;
    }
    const key = c0 * 128 + c1;
    (buckets[key] ??= []).push(literal);
  }
  return { buckets, others };
}

function matchesAt(text: string, at: number, literal: string): boolean {
  if (at + literal.length > text.length) return false;
  for (let k = 2; k < literal.length; k += 1) if (fold(text.charCodeAt(at + k)) !== literal.charCodeAt(k)) return false;
  return true;
}

/**
 * Calls `found(literal, line)` for every occurrence, `line` counting `\n`s
 * before it (0-based). Occurrences come in text order, so each literal's lines
 * arrive ascending.
 */
export function findTriggers(text: string, matcher: TriggerMatcher, found: (literal: string, line: number) => void): void {
  const { buckets } = matcher;
  let line = 0;
  let c0 = text.length > 0 ? fold(text.charCodeAt(0)) : 0;
  for (let i = 0; i + 1 < text.length; i += 1) {
    const c1 = fold(text.charCodeAt(i + 1));
    if (c0 === 10) line += 1;
    else if (c0 < 128 && c1 < 128) {
      const bucket = buckets[c0 * 128 + c1];
      if (bucket !== undefined) for (const literal of bucket) if (matchesAt(text, i, literal)) found(literal, line);
    }
    c0 = c1;
  }
  if (matcher.others.length > 0) findOthers(text, matcher.others, found);
}

function findOthers(text: string, others: readonly string[], found: (literal: string, line: number) => void): void {
  const lower = text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
  for (const literal of others) {
    let line = 0;
    let counted = 0;
    for (let at = lower.indexOf(literal); at >= 0; at = lower.indexOf(literal, at + 1)) {
      for (let k = lower.indexOf('\n', counted); k >= 0 && k < at; k = lower.indexOf('\n', k + 1)) {
        line += 1;
        counted = k + 1;
      }
      found(literal, line);
    }
  }
}
