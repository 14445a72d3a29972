/**
 * Rules are written for one line; the scan runs each over a whole file at
 * once (one regex call per rule per file instead of per line, about ten times
 * faster). This rewrite keeps a match inside one line: `\s` outside a
 * character class becomes "whitespace but not a line break", and the `m` flag
 * makes `^`/`$` line anchors. Character classes are already line-safe (they
 * use `[^\n]` or negate `\s`).
 */
export function compileLineRegex(pattern: RegExp): RegExp {
  const src = pattern.source;
  let out = '';
  let inClass = false;
  for (let i = 0; i < src.length; i += 1) {
    const ch = src[i]!;
    if (ch === '\\') {
      const next = src[i + 1] ?? '';
      out += !inClass && next === 's' ? '[^\\S\\n\\r]' : `\\${next}`;
      i += 1;
    } else {
      if (ch === '[' && !inClass) inClass = true;
      else if (ch === ']' && inClass) inClass = false;
      out += ch;
    }
  }
  const flags = new Set([...pattern.flags, 'g', 'm']);
  return new RegExp(out, [...flags].join(''));
}

/** Splits a pattern source on `|` at nesting depth 0. */
function splitTopLevel(src: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < src.length; i += 1) {
    const ch = src[i]!;
    if (ch === '\\') i += 1;
    else if (inClass) inClass = ch !== ']';
    else if (ch === '[') inClass = true;
    else if (ch === '(') depth += 1;
    else if (ch === ')') depth -= 1;
    else if (ch === '|' && depth === 0) {
      parts.push(src.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(src.slice(start));
  return parts;
}

function closingParen(src: string, open: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = open; i < src.length; i += 1) {
    const ch = src[i]!;
    if (ch === '\\') i += 1;
    else if (inClass) inClass = ch !== ']';
    else if (ch === '[') inClass = true;
    else if (ch === '(') depth += 1;
    else if (ch === ')' && --depth === 0) return i;
  }
  return -1;
}

const literalChar = /[A-Za-z0-9_ :<>!@#%&=,'"`~/-]/;
const escapedLiteral = /[./\\\-[\](){}|$^*+?!<>:=@#%&,'"`~]/;

/** The literal text every match of one alternative starts with (lower-cased), or undefined if there is none. */
function literalPrefixes(alt: string): string[] | undefined {
  let src = alt;
  for (;;) {
    if (src.startsWith('\\b')) src = src.slice(2);
    else if (src.startsWith('(?<!') || src.startsWith('(?<=') || src.startsWith('(?!') || src.startsWith('(?=')) {
      const close = closingParen(src, 0);
      if (close < 0) return undefined;
      src = src.slice(close + 1);
    } else break;
  }
  if (src.startsWith('(?:')) {
    const close = closingParen(src, 0);
    if (close < 0 || /^[?*{]/.test(src.slice(close + 1))) return undefined;
    const inner = splitTopLevel(src.slice(3, close)).map(literalPrefixes);
    return inner.every((p): p is string[] => p !== undefined) ? inner.flat() : undefined;
  }
  let text = '';
  for (let i = 0; i < src.length; i += 1) {
    const ch = src[i]!;
    const next = src[i + 1] ?? '';
    if (ch === '\\' && escapedLiteral.test(next)) {
      text += next;
      i += 1;
    } else if (literalChar.test(ch) && ch !== '|') text += ch;
    else {
      if (/[?*{]/.test(ch)) text = text.slice(0, -1);
      break;
    }
    if (/[?*{]/.test(src[i + 1] ?? '')) {
      text = text.slice(0, -1);
      break;
    }
  }
  return text.length >= 2 ? [text.toLowerCase()] : undefined;
}

/**
 * Literal strings at least one of which occurs in any text the pattern
 * matches, so a file without any of them is skipped for that rule. Undefined
 * when none can be derived (the rule then always runs).
 */
export function deriveTriggers(pattern: RegExp): string[] | undefined {
  const alts = splitTopLevel(pattern.source).map(literalPrefixes);
  return alts.every((p): p is string[] => p !== undefined) ? [...new Set(alts.flat())] : undefined;
}
