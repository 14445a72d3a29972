/**
 * Finding `old` in a file the way agents need it found: exact first, then a
 * chain of increasingly tolerant matchers (the order Hermes Agent's agents
 * rely on). The first matcher that finds anything decides; more than one
 * match is ambiguous unless the caller asked to replace all.
 */

export type MatcherName =
  | 'exact'
  | 'line-trimmed'
  | 'whitespace-normalized'
  | 'indentation-flexible'
  | 'escape-normalized'
  | 'trimmed-boundary'
  | 'unicode-normalized'
  | 'block-anchored';

/** A matched span of the original text, [start, end) in UTF-16 offsets. */
export interface Span {
  start: number;
  end: number;
  /** 1-based line where the span starts. */
  line: number;
}

export interface MatchResult {
  matcher: MatcherName;
  spans: Span[];
}

interface Line {
  text: string;
  start: number;
  end: number;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (;;) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const raw = text.slice(start, end);
    // A CRLF file's lines end before the \r, so a replacement keeps the file's line endings.
    const trimmedEnd = raw.endsWith('\r') ? end - 1 : end;
    lines.push({ text: text.slice(start, trimmedEnd), start, end: trimmedEnd });
    if (newline < 0) return lines;
    start = newline + 1;
  }
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function exactSpans(text: string, needle: string): Span[] {
  const spans: Span[] = [];
  if (needle === '') return spans;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
    spans.push({ start: at, end: at + needle.length, line: lineOf(text, at) });
  }
  return spans;
}

/** Slides a window of `old`'s line count over the text, comparing lines after `normalize`. */
function lineWindowSpans(text: string, old: string, normalize: (line: string) => string): Span[] {
  const lines = splitLines(text);
  const wanted = splitLines(old.replace(/\r?\n$/, '')).map((l) => normalize(l.text));
  const spans: Span[] = [];
  if (wanted.every((l) => l === '')) return spans;
  const normalized = lines.map((l) => normalize(l.text));
  for (let i = 0; i + wanted.length <= lines.length; i++) {
    let same = true;
    for (let k = 0; k < wanted.length && same; k++) same = normalized[i + k] === wanted[k];
    if (!same) continue;
    const first = lines[i] as Line;
    const last = lines[i + wanted.length - 1] as Line;
    spans.push({ start: first.start, end: last.end, line: i + 1 });
    i += wanted.length - 1;
  }
  return spans;
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Whole-text whitespace-insensitive search: maps matches of the collapsed text back to original offsets. */
function whitespaceSpans(text: string, old: string): Span[] {
  const target = collapse(old);
  if (target === '') return [];
  const map: number[] = [];
  let collapsed = '';
  let inSpace = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (/\s/.test(ch)) {
      if (!inSpace && collapsed.length > 0) {
        collapsed += ' ';
        map.push(i);
      }
      inSpace = true;
    } else {
      collapsed += ch;
      map.push(i);
      inSpace = false;
    }
  }
  return exactSpans(collapsed, target).map((span) => {
    const start = map[span.start] as number;
    const end = (map[span.end - 1] as number) + 1;
    return { start, end, line: lineOf(text, start) };
  });
}

function unescape(s: string): string {
  return s.replace(/\\(n|t|r|"|'|\\)/g, (_, c: string) => ({ n: '\n', t: '\t', r: '\r', '"': '"', "'": "'", '\\': '\\' })[c] ?? c);
}

const unicodeFolds: [RegExp, string][] = [
  [/[\u2018\u2019\u201A\u201B\u2032]/g, "'"],
  [/[\u201C\u201D\u201E\u201F\u2033]/g, '"'],
  [/[\u2010-\u2015\u2212]/g, '-'],
  [/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, ' '],
];

function foldUnicode(s: string): string {
  let out = s;
  for (const [pattern, replacement] of unicodeFolds) out = out.replace(pattern, replacement);
  return out;
}

/** Every fold maps one character to one, so spans found in the folded text are spans of the original. */
function unicodeSpans(text: string, old: string): Span[] {
  const folded = foldUnicode(old);
  return exactSpans(foldUnicode(text), folded);
}

/** First and last lines match (trimmed) and the block between has about the right length. */
function blockAnchoredSpans(text: string, old: string): Span[] {
  const wanted = splitLines(old.replace(/\r?\n$/, '')).map((l) => l.text.trim());
  if (wanted.length < 3) return [];
  const first = wanted[0] as string;
  const last = wanted[wanted.length - 1] as string;
  if (first === '' || last === '') return [];
  const lines = splitLines(text);
  const spans: Span[] = [];
  const slack = Math.max(2, Math.ceil(wanted.length * 0.25));
  for (let i = 0; i < lines.length; i++) {
    if ((lines[i] as Line).text.trim() !== first) continue;
    for (let j = i + wanted.length - 1 - slack; j <= i + wanted.length - 1 + slack && j < lines.length; j++) {
      if (j <= i || (lines[j] as Line).text.trim() !== last) continue;
      spans.push({ start: (lines[i] as Line).start, end: (lines[j] as Line).end, line: i + 1 });
      i = j;
      break;
    }
  }
  return spans;
}

const matchers: { name: MatcherName; find: (text: string, old: string) => Span[] }[] = [
  { name: 'exact', find: exactSpans },
  { name: 'line-trimmed', find: (t, o) => lineWindowSpans(t, o, (l) => l.trim()) },
  { name: 'whitespace-normalized', find: whitespaceSpans },
  { name: 'indentation-flexible', find: (t, o) => lineWindowSpans(t, o, (l) => l.replace(/^\s+/, '')) },
  { name: 'escape-normalized', find: (t, o) => (unescape(o) === o ? [] : exactSpans(t, unescape(o))) },
  { name: 'trimmed-boundary', find: (t, o) => (o.trim() === o ? [] : exactSpans(t, o.trim())) },
  { name: 'unicode-normalized', find: unicodeSpans },
  { name: 'block-anchored', find: blockAnchoredSpans },
];

/** The first matcher in the chain that finds `old`, with every span it found; undefined when none does. */
export function findMatches(text: string, old: string): MatchResult | undefined {
  for (const matcher of matchers) {
    const spans = matcher.find(text, old);
    if (spans.length > 0) return { matcher: matcher.name, spans };
  }
  return undefined;
}

/** Replaces the spans (non-overlapping, any order) with `replacement`. */
export function replaceSpans(text: string, spans: readonly Span[], replacement: string): string {
  let out = '';
  let at = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    out += text.slice(at, span.start) + replacement;
    at = span.end;
  }
  return out + text.slice(at);
}

/** The lines most like `old`'s first line, for an error that tells the agent where to look. */
export function closestLines(text: string, old: string, count = 3): { line: number; text: string }[] {
  const probe = collapse(old.split('\n').find((l) => l.trim() !== '') ?? old).toLowerCase();
  const probeWords = new Set(probe.split(' ').filter(Boolean));
  return splitLines(text)
    .map((l, index) => {
      const words = collapse(l.text).toLowerCase().split(' ').filter(Boolean);
      const shared = words.filter((w) => probeWords.has(w)).length;
      return { line: index + 1, text: l.text, score: shared / Math.max(1, probeWords.size + words.length - shared) };
    })
    .filter((l) => l.score > 0)
    .sort((a, b) => b.score - a.score || a.line - b.line)
    .slice(0, count)
    .map(({ line, text: t }) => ({ line, text: t }));
}
