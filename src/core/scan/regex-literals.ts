/**
 * Reads a rule's regex source into a small tree, to find literal strings
 * every match must contain ("required factors"). The scan looks for those
 * literals first and runs a rule only on lines holding one, so the rarer the
 * literal the less regex work: `\.ssh\/id_` rules out far more lines than the
 * command words (`cat`, `nc`, …) the same pattern starts with.
 */
export type RegexNode =
  /** One character from a set: `chars` when the set is small and known (lower-cased), `source` to test against. */
  | { kind: 'set'; source: string; chars: string[] | undefined }
  /**
   * Matches no character. `edge` says what it asserts about the characters
   * around it: `word` for `\b`, `line-start` for `^`, `line-end` for `$`;
   * lookarounds and `\B` assert nothing used here.
   */
  | { kind: 'empty'; edge?: 'word' | 'line-start' | 'line-end' }
  | { kind: 'group'; alternatives: RegexNode[][] }
  | { kind: 'repeat'; node: RegexNode; min: number; max: number }
  /** A back-reference: its text is unknown here. */
  | { kind: 'backref' };

/** A set larger than this is treated as "any character" for literals. */
const MAX_SET = 6;
/** Past this many strings a run of literals is cut (`(?:a|b)(?:c|d)…` multiplies). */
const MAX_STRINGS = 64;

/** Escapes that stand for one character. */
const singleChar: Record<string, string | undefined> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', '0': '\0' };

class Reader {
  i = 0;
  constructor(readonly src: string) {}
  peek(offset = 0): string {
    return this.src[this.i + offset] ?? '';
  }
  fail(what: string): never {
    throw new Error(`Cannot read regex /${this.src}/ at ${this.i}: ${what}`);
  }
}

/** Parses the regex source syntax the rule table uses (ES2018, with or without the `u` flag). */
export function parseRegexSource(src: string): RegexNode[][] {
  const reader = new Reader(src);
  const alternatives = readAlternatives(reader);
  if (reader.i < src.length) reader.fail('unbalanced parenthesis');
  return alternatives;
}

function readAlternatives(r: Reader): RegexNode[][] {
  const alternatives: RegexNode[][] = [readSequence(r)];
  while (r.peek() === '|') {
    r.i += 1;
    alternatives.push(readSequence(r));
  }
  return alternatives;
}

function readSequence(r: Reader): RegexNode[] {
  const nodes: RegexNode[] = [];
  while (r.i < r.src.length && r.peek() !== '|' && r.peek() !== ')') {
    const atom = readAtom(r);
    nodes.push(readQuantifier(r, atom));
  }
  return nodes;
}

function readQuantifier(r: Reader, node: RegexNode): RegexNode {
  let min: number;
  let max: number;
  const ch = r.peek();
  if (ch === '?' || ch === '*' || ch === '+') {
    r.i += 1;
    [min, max] = ch === '?' ? [0, 1] : ch === '*' ? [0, Infinity] : [1, Infinity];
  } else if (ch === '{' && /^\{\d+(?:,\d*)?\}/.test(r.src.slice(r.i))) {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(r.src.slice(r.i))!;
    r.i += m[0].length;
    min = Number(m[1]);
    max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
  } else return node;
  if (r.peek() === '?') r.i += 1;
  return readQuantifier(r, { kind: 'repeat', node, min, max });
}

function readAtom(r: Reader): RegexNode {
  const ch = r.peek();
  if (ch === '(') return readGroup(r);
  if (ch === '[') return readClass(r);
  if (ch === '^' || ch === '$') {
    r.i += 1;
    return { kind: 'empty', edge: ch === '^' ? 'line-start' : 'line-end' };
  }
  if (ch === '.') {
    r.i += 1;
    return { kind: 'set', source: '.', chars: undefined };
  }
  if (ch === '\\') return readEscape(r);
  r.i += 1;
  return literal(ch);
}

function literal(ch: string): RegexNode {
  return { kind: 'set', source: ch.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'), chars: [ch.toLowerCase()] };
}

function readGroup(r: Reader): RegexNode {
  const rest = r.src.slice(r.i);
  const lookaround = /^\(\?<?[=!]/.exec(rest);
  const prefix = lookaround?.[0] ?? /^\(\?(?::|<[A-Za-z_$][\w$]*>)/.exec(rest)?.[0] ?? '(';
  r.i += prefix.length;
  const alternatives = readAlternatives(r);
  if (r.peek() !== ')') r.fail('missing )');
  r.i += 1;
  return lookaround ? { kind: 'empty' } : { kind: 'group', alternatives };
}

/** `\\xHH`, `\\uHHHH`, `\\u{H…}` or `\\cX` at the reader: the character it stands for, read past; undefined (and not moved) otherwise. */
function readCodeEscape(r: Reader): string | undefined {
  const code = /^\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|u\{([0-9a-fA-F]+)\}|c([A-Za-z]))/.exec(r.src.slice(r.i));
  if (!code) return undefined;
  r.i += code[0].length;
  return String.fromCodePoint(
    code[4] !== undefined ? code[4].toUpperCase().charCodeAt(0) % 32 : parseInt(code[1] ?? code[2] ?? code[3]!, 16),
  );
}

function readEscape(r: Reader): RegexNode {
  const coded = readCodeEscape(r);
  if (coded !== undefined) return literal(coded);
  const next = r.peek(1);
  r.i += 2;
  if (next === 'b') return { kind: 'empty', edge: 'word' };
  if (next === 'B') return { kind: 'empty' };
  if (/[1-9]/.test(next) || (next === 'k' && r.peek() === '<')) {
    while (/[0-9]/.test(r.peek())) r.i += 1;
    if (next === 'k') r.i = r.src.indexOf('>', r.i) + 1;
    return { kind: 'backref' };
  }
  if (next === 'p' || next === 'P') {
    const close = r.src.indexOf('}', r.i);
    const source = r.src.slice(r.i - 2, close + 1);
    r.i = close + 1;
    return { kind: 'set', source, chars: undefined };
  }
  const single = singleChar[next];
  if (single !== undefined) return { kind: 'set', source: `\\${next}`, chars: [single] };
  if (/[sSwWDd]/.test(next)) return { kind: 'set', source: `\\${next}`, chars: undefined };
  return literal(next);
}

/** A character class; its chars are known when it is not negated, has no shorthand or range, and is small. */
function readClass(r: Reader): RegexNode {
  const start = r.i;
  r.i += 1;
  const negated = r.peek() === '^';
  if (negated) r.i += 1;
  const chars = new Set<string>();
  let known = !negated;
  // As in JavaScript (not POSIX), a `]` right after `[` closes the class: `[]` matches nothing.
  while (r.i < r.src.length && r.peek() !== ']') {
    const ch = readClassAtom(r);
    if (r.peek() === '-' && r.peek(1) !== ']' && r.peek(1) !== '') {
      // A range: too many characters to list as literals, whatever its ends.
      r.i += 1;
      readClassAtom(r);
      known = false;
    } else if (ch === undefined) known = false;
    else chars.add(ch.toLowerCase());
  }
  if (r.peek() !== ']') r.fail('missing ]');
  r.i += 1;
  return { kind: 'set', source: r.src.slice(start, r.i), chars: known && chars.size <= MAX_SET && chars.size > 0 ? [...chars] : undefined };
}

/** One member of a class: its character, or undefined for a shorthand (`\\s`, `\\d`, `\\p{…}`) that stands for many. */
function readClassAtom(r: Reader): string | undefined {
  const ch = r.peek();
  if (ch !== '\\') {
    r.i += 1;
    return ch;
  }
  const coded = readCodeEscape(r);
  if (coded !== undefined) return coded;
  const next = r.peek(1);
  r.i += 2;
  if (next === 'p' || next === 'P') {
    r.i = r.src.indexOf('}', r.i) + 1;
    return undefined;
  }
  if (/[sSwWdD]/.test(next)) return undefined;
  // Inside a class `\b` is a backspace.
  return next === 'b' ? '\b' : (singleChar[next] ?? next);
}

/**
 * Literal strings one of which every match holds, with what is known of
 * their surroundings: `before` when the character before the string is never
 * a word character (A-Z, a-z, 0-9, _) or the line starts there, `after` the
 * same for the character after it. `\bnc\b` occurs on a few lines where
 * `nc` alone occurs on every line holding "function".
 */
export interface Trigger {
  text: string;
  before: boolean;
  after: boolean;
}

/** Literals one of which every match holds. */
type Factor = Trigger[];

/** What a node tells about literals: the exact strings it can match (when few), and sets one of which any match contains. */
interface Literals {
  exact: string[] | undefined;
  factors: Factor[];
}

function cross(left: readonly string[], right: readonly string[]): string[] {
  const out = new Set<string>();
  for (const a of left) for (const b of right) out.add(a + b);
  return [...out];
}

const isWordChar = (ch: string | undefined): boolean => ch !== undefined && /^[a-z0-9_]$/i.test(ch);

/** True when the node always consumes whitespace right at its edge: `\s`, `\s+`, `\s{2,}`. */
function isSpace(node: RegexNode | undefined): boolean {
  if (node?.kind === 'repeat') return node.min >= 1 && isSpace(node.node);
  return node?.kind === 'set' && node.source === '\\s';
}

/**
 * What sits right around a group in the sequence that holds it: the edges
 * asserted there (`\b(?:env|set|export\s+-p)`) and the nodes outside, so an
 * alternative's literals know their edges as a run of the enclosing sequence
 * would. Not passed through a repeat (a second round follows the first).
 */
interface Surroundings {
  leading: ReadonlySet<string>;
  before: RegexNode | undefined;
  trailing: ReadonlySet<string>;
  after: RegexNode | undefined;
}

function nodeLiterals(node: RegexNode, around?: Surroundings): Literals {
  switch (node.kind) {
    case 'set':
      return { exact: node.chars, factors: [] };
    case 'empty':
      return { exact: [''], factors: [] };
    case 'backref':
      return { exact: undefined, factors: [] };
    case 'group':
      return alternativesLiterals(node.alternatives, around);
    case 'repeat': {
      if (node.min === 0) return { exact: undefined, factors: [] };
      const inner = nodeLiterals(node.node);
      const factors = inner.exact && !inner.exact.includes('') ? [plain(inner.exact), ...inner.factors] : inner.factors;
      if (node.min === 1 && node.max === 1) return inner;
      return { exact: undefined, factors };
    }
  }
}

/** The edges asserted by the empty nodes of `list`, read from its start up to the first node that consumes. */
function edgesAt(list: readonly RegexNode[]): Set<string> {
  const found = new Set<string>();
  for (const node of list) {
    if (node.kind !== 'empty') break;
    if (node.edge) found.add(node.edge);
  }
  return found;
}

/**
 * A run of consecutive exact nodes, closed into a factor: its edges are known
 * when a `\b` or `^`/`$` sits at them (`\b` only counts next to a word
 * character), or when whitespace is consumed right outside them.
 */
function runFactor(
  strings: string[],
  nodes: readonly RegexNode[],
  outside: { before: RegexNode | undefined; after: RegexNode | undefined; leading?: ReadonlySet<string>; trailing?: ReadonlySet<string> },
): Factor {
  const leading = new Set([...edgesAt(nodes), ...(outside.leading ?? [])]);
  const trailing = new Set([...edgesAt([...nodes].reverse()), ...(outside.trailing ?? [])]);
  const before = leading.has('line-start') || isSpace(outside.before) || (leading.has('word') && strings.every((s) => isWordChar(s[0])));
  const after =
    trailing.has('line-end') || isSpace(outside.after) || (trailing.has('word') && strings.every((s) => isWordChar(s[s.length - 1])));
  return strings.map((text) => ({ text, before, after }));
}

function plain(strings: readonly string[]): Factor {
  return strings.map((text) => ({ text, before: false, after: false }));
}

/** The surroundings of `nodes[i]`: the empty nodes right before and after it, and past them what consumes. */
function surroundingsOf(nodes: readonly RegexNode[], i: number, around: Surroundings | undefined): Surroundings {
  let j = i - 1;
  while (j >= 0 && nodes[j]!.kind === 'empty') j -= 1;
  let k = i + 1;
  while (k < nodes.length && nodes[k]!.kind === 'empty') k += 1;
  const leading = new Set([...edgesAt(nodes.slice(j + 1, i).reverse()), ...(j < 0 ? (around?.leading ?? []) : [])]);
  const trailing = new Set([...edgesAt(nodes.slice(i + 1, k)), ...(k >= nodes.length ? (around?.trailing ?? []) : [])]);
  return { leading, before: j >= 0 ? nodes[j] : around?.before, trailing, after: k < nodes.length ? nodes[k] : around?.after };
}

function sequenceLiterals(nodes: readonly RegexNode[], around?: Surroundings): Literals {
  const factors: Factor[] = [];
  let run: string[] = [''];
  let start = 0;
  let exact = true;
  const close = (end: number) => {
    if (!run.includes(''))
      factors.push(
        runFactor(run, nodes.slice(start, end), {
          before: start > 0 ? nodes[start - 1] : around?.before,
          after: end < nodes.length ? nodes[end] : around?.after,
          ...(start === 0 && around ? { leading: around.leading } : {}),
          ...(end === nodes.length && around ? { trailing: around.trailing } : {}),
        }),
      );
    run = [''];
    start = end;
  };
  nodes.forEach((node, i) => {
    const found = nodeLiterals(node, node.kind === 'group' ? surroundingsOf(nodes, i, around) : undefined);
    factors.push(...found.factors);
    if (found.exact === undefined) {
      exact = false;
      close(i);
      start = i + 1;
      return;
    }
    if (run.length * found.exact.length > MAX_STRINGS) {
      exact = false;
      close(i);
    }
    run = cross(run, found.exact);
  });
  const whole = exact ? run : undefined;
  close(nodes.length);
  return { exact: whole, factors };
}

function alternativesLiterals(alternatives: readonly RegexNode[][], around?: Surroundings): Literals {
  const each = alternatives.map((alternative) => sequenceLiterals(alternative, around));
  const exact = each.every((l) => l.exact !== undefined) ? [...new Set(each.flatMap((l) => l.exact!))] : undefined;
  const best = each.map((l) => bestFactor(withExact(l)));
  if (!best.every((b): b is Factor => b !== undefined))
    return { exact: exact && exact.length <= MAX_STRINGS ? exact : undefined, factors: [] };
  // One set for the whole group: each alternative's literals, each with its own edges.
  return { exact: exact && exact.length <= MAX_STRINGS ? exact : undefined, factors: [best.flat()] };
}

function withExact(literals: Literals): Factor[] {
  const { exact, factors } = literals;
  return exact && !exact.includes('') ? [plain(exact), ...factors] : factors;
}

/** How likely a line holds one of the strings, roughly: each character divides the chance by 20, each known edge by 4. */
function frequency(factor: Factor): number {
  return factor.reduce((sum, t) => sum + 20 ** -t.text.length / ((t.before ? 4 : 1) * (t.after ? 4 : 1)), 0);
}

function bestFactor(factors: readonly Factor[]): Factor | undefined {
  let best: Factor | undefined;
  for (const factor of factors) if (best === undefined || frequency(factor) < frequency(best)) best = factor;
  return best;
}

/**
 * Lower-cased literal strings at least one of which occurs in every match of
 * `pattern` (the rarest such set found), with what is known of their edges;
 * undefined when none can be found. Lookarounds are read as matching
 * nothing, so the answer holds whatever they would have ruled out.
 */
export function requiredTriggers(pattern: RegExp): Trigger[] | undefined {
  const best = bestFactor(withExact(alternativesLiterals(parseRegexSource(pattern.source))));
  return best && mergeEdges(best);
}

/** The same text may come from two alternatives with different edges: keep the weaker claim. */
function mergeEdges(factor: Factor): Trigger[] {
  const byText = new Map<string, Trigger>();
  for (const t of factor) {
    const seen = byText.get(t.text);
    byText.set(t.text, seen ? { text: t.text, before: seen.before && t.before, after: seen.after && t.after } : t);
  }
  return [...byText.values()];
}

/** A second set is worth a look-up only when it is about as rare as a three-letter word at a word edge, or rarer. */
const RARE_ENOUGH = 20 ** -3;

/**
 * A second set of literals every match also holds, independent of
 * `requiredTriggers`' (`\b(?:developer|god)\s+mode\b` holds `mode` too): a
 * line must hold one of each before the rule runs on it. Read only from a
 * pattern of one top-level alternative (a group's second sets are not kept);
 * undefined when there is none rare enough.
 */
export function secondTriggers(pattern: RegExp): Trigger[] | undefined {
  const top = parseRegexSource(pattern.source);
  const first = requiredTriggers(pattern);
  if (top.length !== 1 || !first) return undefined;
  // A set each first literal already holds one of (`shadow` in `/etc/shadow`) rules out nothing more.
  const implied = (factor: Factor): boolean => first.every((f) => factor.some((t) => f.text.includes(t.text)));
  const others = withExact(sequenceLiterals(top[0]!)).filter((factor) => frequency(factor) <= RARE_ENOUGH && !implied(factor));
  const second = bestFactor(others);
  return second && mergeEdges(second);
}

/** The strings of `requiredTriggers`, without their edges. */
export function requiredLiterals(pattern: RegExp): string[] | undefined {
  return requiredTriggers(pattern)?.map((t) => t.text);
}
