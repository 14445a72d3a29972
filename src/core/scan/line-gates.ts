/**
 * One pass over a file's characters that tells which lines can need more than
 * the raw-line rules. A line of plain ASCII has no normalised variant and no
 * invisible characters; without a quote, backslash or `&` it has no joined
 * variant; without 16 base64 characters in a row it has no base64 token. Most
 * lines are all three, and skipping them is most of the per-line cost.
 */
export interface LineGates {
  /** 0-based lines that may have a normalised, joined or base64 variant or invisible characters, ascending. */
  variantLines: number[];
  /** 0-based lines holding any non-ASCII character. */
  nonAscii: Set<number>;
  /** The longest run of base64 characters (`A-Za-z0-9+/`) anywhere in the text. */
  longestBase64Run: number;
}

/** The shortest token `findBase64Text` decodes. */
const MIN_BASE64_TOKEN = 16;

const BASE64 = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') BASE64[ch.charCodeAt(0)] = 1;
const SPLIT = new Uint8Array(128);
// Every pattern of `buildJoinedVariant` holds one of these (quotes, `\`, `&#`).
for (const ch of '"\'`\\&') SPLIT[ch.charCodeAt(0)] = 1;

/** Lines are split on `\n` only: the caller has already turned CRLF and lone CR into LF. */
export function buildLineGates(text: string): LineGates {
  const variantLines: number[] = [];
  const nonAscii = new Set<number>();
  let longest = 0;
  let line = 0;
  let run = 0;
  let flagged = false;
  let wide = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 10) {
      if (flagged) variantLines.push(line);
      if (wide) nonAscii.add(line);
      line += 1;
      run = 0;
      flagged = false;
      wide = false;
    } else if (code >= 128) {
      wide = true;
      flagged = true;
      run = 0;
    } else if (BASE64[code] === 1) {
      run += 1;
      if (run > longest) longest = run;
      if (run >= MIN_BASE64_TOKEN) flagged = true;
    } else {
      run = 0;
      if (SPLIT[code] === 1) flagged = true;
    }
  }
  if (flagged) variantLines.push(line);
  if (wide) nonAscii.add(line);
  return { variantLines, nonAscii, longestBase64Run: longest };
}
