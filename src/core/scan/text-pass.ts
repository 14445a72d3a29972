import { GATE_BASE64, GATE_JOIN, GATE_WIDE, mayJoin, MIN_BASE64_TOKEN, type LineGates } from './line-gates.js';
import { addEndingAt, findOthers, newTriggerHits, type TriggerHits, type TriggerMatcher } from './trigger-index.js';

/** What one pass over a file's characters tells: where its trigger literals are, its lines, and its line gates. */
export interface TextPass extends LineGates {
  hits: TriggerHits;
  /** The offset each 0-based line starts at (lines counted by `\n`). */
  lineStarts: number[];
}

/**
 * One pass over a text for both the trigger literals (trigger-index.ts) and
 * the line gates (line-gates.ts, whose `buildLineGates` is the plain version
 * of the gates and is checked against this one): the automaton's character
 * classes put the few characters the gates look at (line breaks, quotes,
 * `\`, `&`, `+`, non-ASCII) last, so a single compare sends the rest on,
 * and a base64 run is counted with a mask instead of a branch. The caller
 * has already turned CRLF and lone CR into LF.
 */
export function passText(text: string, matcher: TriggerMatcher): TextPass {
  // Only once the process has read enough for V8 to optimise the loop: a one-skill `validate` never gets there.
  read += text.length;
  if (read > PRIME_AFTER && !primed.has(matcher)) {
    primed.add(matcher);
    readText(primerFor(matcher), matcher);
  }
  return readText(text, matcher);
}

const primed = new WeakSet<TriggerMatcher>();
const PRIME_AFTER = 100_000;
let read = 0;

/**
 * A short text that takes every branch of `readText` once: V8 optimises the
 * loop after the first large file, and a branch that file never took (its
 * first non-ASCII character, quote or literal) would throw the optimised code
 * away and recompile it. Measured over the corpus in one process, that was
 * seven recompilations of this function, more CPU than the pass itself.
 */
function primerFor(matcher: TriggerMatcher): string {
  const some = matcher.literals.slice(0, 24);
  const words = some.flatMap((l) => [l, ` ${l.toUpperCase()} `, `x${l}x`]).join(' ');
  // One case a line: the gates stop looking for a split string once a line has one.
  const cases = [`"a"+'b'`, `''x""`, 'c"d', 'c\\d', 'c`d', "ok'ay'x", "it's", '&#99;', 'a&b', 'x + y', 'é', 'QUJD'.repeat(6), '\u200B'];
  // Repeated: V8 keeps no type feedback for a function until it has run a few times.
  const block = [words, ...cases].join('\n');
  return `${Array.from({ length: 12 }, () => block).join('\n')}\n"a" + "b" é`;
}

function readText(text: string, matcher: TriggerMatcher): TextPass {
  const { classes, delta, width, firstOutput, firstGate, base64Mask } = matcher;
  const newline = classes[10]!;
  const wideClass = classes[128]!;
  const hits = newTriggerHits(matcher);
  const lineStarts = [0];
  const variantLines: number[] = [];
  const variantKinds: number[] = [];
  const nonAscii = new Set<number>();
  let state = 0;
  let line = 0;
  let run = 0;
  let longest = 0;
  let kinds = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = classes[text.charCodeAt(i)]!;
    state = delta[state * width + c]!;
    run = (run + 1) & base64Mask[c]!;
    if (run > longest) longest = run;
    if (state >= firstOutput) addEndingAt(hits, text, matcher, state, i, line);
    if (c >= firstGate) {
      if (c === newline) {
        if (kinds !== 0) {
          variantLines.push(line);
          variantKinds.push(kinds);
          if ((kinds & GATE_WIDE) !== 0) nonAscii.add(line);
        }
        line += 1;
        lineStarts.push(i + 1);
        kinds = 0;
      } else if (c === wideClass) kinds |= GATE_WIDE;
      else if ((kinds & GATE_JOIN) === 0 && mayJoin(text, i, text.charCodeAt(i))) kinds |= GATE_JOIN;
    }
    if (run >= MIN_BASE64_TOKEN) kinds |= GATE_BASE64;
  }
  if (kinds !== 0) {
    variantLines.push(line);
    variantKinds.push(kinds);
    if ((kinds & GATE_WIDE) !== 0) nonAscii.add(line);
  }
  findOthers(text, matcher, hits);
  return { hits, lineStarts, variantLines, variantKinds, nonAscii, longestBase64Run: longest };
}
