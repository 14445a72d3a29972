/**
 * Which lines can need more than the raw-line rules, and why (text-pass.ts
 * finds this in the trigger pass; `buildLineGates` is the plain version). A line of plain ASCII has no normalised variant and no
 * invisible characters; without a quote, backslash, `+` or `&` in the shape
 * of a split string it has no joined variant; without 16 base64 characters in a row it has no base64 token. Most
 * lines are all three, and skipping them is most of the per-line cost.
 */
export interface LineGates {
  /** 0-based lines that may have a normalised, joined or base64 variant or invisible characters, ascending. */
  variantLines: number[];
  /** For each of `variantLines`, why (`GATE_*` bits): only those variants are built. */
  variantKinds: number[];
  /** 0-based lines holding any non-ASCII character. */
  nonAscii: Set<number>;
  /** The longest run of base64 characters (`A-Za-z0-9+/`) anywhere in the text. */
  longestBase64Run: number;
}

/** The line holds a non-ASCII character: it may normalise differently and hold invisible characters. */
export const GATE_WIDE = 1;
/** The line may hold a split string (`mayJoin`). */
export const GATE_JOIN = 2;
/** The line holds a run of `MIN_BASE64_TOKEN` base64 characters. */
export const GATE_BASE64 = 4;

/** The shortest token `findBase64Text` decodes. */
export const MIN_BASE64_TOKEN = 16;

const BASE64 = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') BASE64[ch.charCodeAt(0)] = 1;
const SPLIT = new Uint8Array(128);
// Every pattern of `buildJoinedVariant` holds one of these; `mayJoin` then checks the shape around it.
for (const ch of '"\'`\\&+') SPLIT[ch.charCodeAt(0)] = 1;

const isLetter = (code: number): boolean => (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
const isQuote = (code: number): boolean => code === 34 || code === 39 || code === 96;
const isSpace = (code: number): boolean => code === 32 || code === 9 || code === 11 || code === 12;

/**
 * True where the split-string hint of `buildJoinedVariant` can match at
 * `text[i]` (a superset of it: `"+`, `''`, `a"b`, `a'bc'd`, `&#`).
 */
/** The code at `k`, or 0 past the end (never NaN: a NaN in a compare made V8 recompile the text pass). */
const codeAt = (text: string, k: number): number => (k < text.length ? text.charCodeAt(k) : 0);

export function mayJoin(text: string, i: number, code: number): boolean {
  const prev = i > 0 ? codeAt(text, i - 1) : 0;
  const next = codeAt(text, i + 1);
  if (code === 43) {
    let j = i - 1;
    while (j >= 0 && i - j <= 3 && isSpace(codeAt(text, j))) j -= 1;
    return j >= 0 && isQuote(codeAt(text, j));
  }
  if (code === 38) return next === 35;
  if ((code === 34 || code === 39) && prev === code) return true;
  if (!isLetter(prev)) return false;
  if (code !== 39) return isLetter(next);
  let j = i + 1;
  while (j - i <= 12 && isLetter(codeAt(text, j))) j += 1;
  return j > i + 1 && codeAt(text, j) === 39 && isLetter(codeAt(text, j + 1));
}

/**
 * The plain version of the gates (text-pass.ts computes them in the trigger
 * pass; a test checks the two agree). Lines are split on `\n` only: the
 * caller has already turned CRLF and lone CR into LF.
 */
export function buildLineGates(text: string): LineGates {
  const variantLines: number[] = [];
  const variantKinds: number[] = [];
  const nonAscii = new Set<number>();
  let longest = 0;
  let line = 0;
  let run = 0;
  let kinds = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 10) {
      if (kinds !== 0) {
        variantLines.push(line);
        variantKinds.push(kinds);
      }
      if ((kinds & GATE_WIDE) !== 0) nonAscii.add(line);
      line += 1;
      run = 0;
      kinds = 0;
    } else if (code >= 128) {
      kinds |= GATE_WIDE;
      run = 0;
    } else if (BASE64[code] === 1) {
      run += 1;
      if (run > longest) longest = run;
      if (run >= MIN_BASE64_TOKEN) kinds |= GATE_BASE64;
      if (code === 43 && (kinds & GATE_JOIN) === 0 && mayJoin(text, i, code)) kinds |= GATE_JOIN;
    } else {
      run = 0;
      if (SPLIT[code] === 1 && (kinds & GATE_JOIN) === 0 && mayJoin(text, i, code)) kinds |= GATE_JOIN;
    }
  }
  if (kinds !== 0) {
    variantLines.push(line);
    variantKinds.push(kinds);
  }
  if ((kinds & GATE_WIDE) !== 0) nonAscii.add(line);
  return { variantLines, variantKinds, nonAscii, longestBase64Run: longest };
}
