import { GATE_BASE64, GATE_JOIN, GATE_WIDE, mayJoin, MIN_BASE64_TOKEN, type LineGates } from './line-gates.js';
import { addEndingAt, findOthers, newTriggerHits, TRIGGER_PREFIX, type TriggerHits, type TriggerMatcher } from './trigger-index.js';

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
  if (!primed.has(matcher)) {
    primed.add(matcher);
    readText(primerFor(matcher), matcher);
  }
  return readText(text, matcher);
}

const primed = new WeakSet<TriggerMatcher>();

/**
 * A short text that takes every branch of `readText` (and of `mayJoin` and
 * `addEndingAt`, which V8 inlines into it) before any real text: V8 optimises
 * the loop some 50,000 characters into the first files, and a branch those
 * files never took (an apostrophe inside a word, a literal with a word edge)
 * has no type feedback, so the optimised code is thrown away and compiled
 * again, each compile tens of milliseconds of CPU. Primed after 100,000
 * characters (session 5), the primer came too late: 1–4 deoptimisations and
 * 2–6 compiles of the loop in the first run over the corpus; primed first,
 * none and 2. It is small (one literal per kind of word edge and length, about
 * 3,000 characters, 2 ms cold) so a one-skill `validate` does not pay for it.
 */
function primerFor(matcher: TriggerMatcher): string {
  const kinds = new Map<string, string>();
  matcher.literals.forEach((literal, id) => {
    const kind = `${matcher.edges[id]}:${literal.length > TRIGGER_PREFIX}`;
    if (!kinds.has(kind)) kinds.set(kind, literal);
  });
  const words = [...kinds.values()].flatMap((l) => [l, ` ${l.toUpperCase()} `, `x${l}x`]).join(' ');
  // One case a line: the gates stop looking for a split string once a line has one.
  const cases = [`"a"+'b'`, `''x""`, 'c"d', 'c\\d', 'c`d', "ok'ay'x", "it's", '&#99;', 'a&b', 'x + y', 'é', 'QUJD'.repeat(6), '\u200B'];
  // Repeated: V8 allocates a function's type feedback only after it has run a while (mayJoin: some 50 calls).
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
