import { latinLookalikes as confusables } from './confusables.js';
import { isInvisible } from './unicode.js';

/** A rewritten line and, for each of its UTF-16 units, the index of the unit it came from in the original. */
export interface LineVariant {
  text: string;
  origin: number[];
}

/**
 * NFKC-normalises a line character by character (fullwidth `ｃｕｒｌ` reads
 * `curl`), maps look-alike letters, and drops invisible characters, keeping
 * where each output character came from so findings point at the real column.
 * Returns undefined when the line is plain ASCII (nothing to normalise).
 */
export function buildNormalizedVariant(line: string): LineVariant | undefined {
  if (!changesUnderNormalization(line)) return undefined;
  let text = '';
  const origin: number[] = [];
  let index = 0;
  for (const ch of line) {
    const mapped = ch.charCodeAt(0) < 0x80 ? ch : normalizedChar(ch);
    for (let k = 0; k < mapped.length; k += 1) origin.push(index);
    text += mapped;
    index += ch.length;
  }
  return text === line ? undefined : { text, origin };
}

const normalizedCache = new Map<string, string>();

/** What one non-ASCII character reads as. Cached: a file repeats the same few (dashes, arrows, emoji). */
function normalizedChar(ch: string): string {
  let mapped = normalizedCache.get(ch);
  if (mapped === undefined) {
    const cp = ch.codePointAt(0)!;
    // Tag characters spell invisible ASCII (U+E0041 is an invisible "A"): read them as the text they hide.
    const tag = cp >= 0xe0020 && cp <= 0xe007e ? String.fromCharCode(cp - 0xe0000) : undefined;
    mapped = tag ?? (isInvisible(cp) ? '' : (confusables[ch] ?? ch.normalize('NFKC')));
    if (normalizedCache.size < 4096) normalizedCache.set(ch, mapped);
  }
  return mapped;
}

/** Per non-ASCII code point: whether it reads differently once normalised (a file repeats the same few). */
const readsDifferently = new Map<number, boolean>();

/**
 * Whether any character of the line reads differently once normalised: most
 * non-ASCII lines hold only dashes, arrows or emoji, which NFKC leaves alone,
 * and a long such line is then not rebuilt character by character.
 */
function changesUnderNormalization(line: string): boolean {
  for (let i = 0; i < line.length; i += 1) {
    if (line.charCodeAt(i) < 0x80) continue;
    const cp = line.codePointAt(i)!;
    let differs = readsDifferently.get(cp);
    if (differs === undefined) {
      const ch = String.fromCodePoint(cp);
      differs = normalizedChar(ch) !== ch;
      if (readsDifferently.size < 4096) readsDifferently.set(cp, differs);
    }
    if (differs) return true;
    if (cp > 0xffff) i += 1;
  }
  return false;
}

/** `"cu" + "rl"`, `c''url`, `c"u"rl`, `c\url`: the ways a command word is split to dodge a pattern. */
// A lone apostrophe inside a word is English (don't), so a single quote counts only in pairs (c'ur'l);
// a backtick before a lone `s` ends a Markdown code span made plural ("`chmod +x`s it").
// Numeric character references (`&#99;url`, `&#x63;url`) spell a command a Markdown renderer shows plainly.
const splitters =
  /(["'`])\s{0,3}\+\s{0,3}\1|(?<=\w)(?:''|"")(?=\w)|(?<=[a-z])(?:["\\]|`(?!s\b))(?=[a-z])|(?<=[a-z])'(?=[a-z]{1,12}'[a-z])|(?<=[a-z]'[a-z]{1,12})'(?=[a-z])|&#(?:(\d{2,3})|x([0-9a-f]{2}));/gi;
const splitHint = /["'`]\s{0,3}\+|''|""|[a-z]["`\\][a-z]|[a-z]'[a-z]{1,12}'[a-z]|&#x?[0-9a-f]{2,3};/i;

function decodeReference(m: RegExpMatchArray): string {
  const code = m[2] !== undefined ? parseInt(m[2], 10) : m[3] !== undefined ? parseInt(m[3], 16) : -1;
  return code >= 0x20 && code < 0x7f ? String.fromCharCode(code) : '';
}

/** Removes string splits and decodes ASCII character references; undefined when there are none. */
export function buildJoinedVariant(line: string): LineVariant | undefined {
  if (!splitHint.test(line)) return undefined;
  let text = '';
  const origin: number[] = [];
  let last = 0;
  for (const m of line.matchAll(splitters)) {
    for (let i = last; i < m.index; i += 1) origin.push(i);
    const decoded = decodeReference(m);
    text += line.slice(last, m.index) + decoded;
    if (decoded) origin.push(m.index);
    last = m.index + m[0].length;
  }
  if (last === 0) return undefined;
  for (let i = last; i < line.length; i += 1) origin.push(i);
  text += line.slice(last);
  return { text, origin };
}

export interface DecodedToken {
  text: string;
  column: number;
}

const base64Token = /(?<![\w+/=])[A-Za-z0-9+/]{16,8192}={0,2}(?![\w+/=])/g;
const printable = /^[\x09\x0A\x0D\x20-\x7E]*$/;

/**
 * Whether every group of four characters starts with `A`–`Z` or `a`–`f` (values 0–31): the first byte a
 * group decodes to takes its top bits from that character, and only values under 32 leave it ASCII. So a
 * token failing this cannot decode to the readable text looked for, and is not decoded (most tokens in
 * Markdown are words and paths, such as `GenerationRequest` or `skills/references`).
 */
function quadsStartLow(token: string): boolean {
  for (let i = 0; i < token.length; i += 4) {
    const code = token.charCodeAt(i);
    if (!((code >= 65 && code <= 90) || (code >= 97 && code <= 102))) return false;
  }
  return true;
}

/** Base64 tokens on a line that decode to readable text (a hidden command or instruction). */
export function findBase64Text(line: string): DecodedToken[] {
  if (line.length < 16) return [];
  const out: DecodedToken[] = [];
  for (const m of line.matchAll(base64Token)) {
    const token = m[0];
    if (token.replace(/=+$/, '').length % 4 === 1 || !/[0-9+/]|[a-z][A-Z]|[A-Z][a-z]{0,2}[A-Z]/.test(token)) continue;
    if (!quadsStartLow(token)) continue;
    const text = Buffer.from(token, 'base64').toString('latin1');
    if (text.length >= 8 && printable.test(text) && /[a-z]{2,}[ |;/.:-]/i.test(text)) out.push({ text, column: m.index + 1 });
  }
  return out;
}
