import type { ThreatRule } from './rules.js';
import type { ScanVia } from './types.js';

const quotePairs: Array<[string, string]> = [
  ['"', '"'],
  ['`', '`'],
  ['“', '”'],
  ['«', '»'],
];

/** The match sits inside a quoted span on its line: quoted prose is usually an example being discussed. */
export function isQuoted(line: string, start: number, end: number): boolean {
  return quotePairs.some(([open, close]) => {
    if (line.lastIndexOf(open, start - 1) < 0) return false;
    const opensBefore = open === close ? line.slice(0, start).split(open).length % 2 === 0 : true;
    return opensBefore && line.indexOf(close, end) >= 0;
  });
}

// Inside the quoted pattern of a search command (`grep -E 'rm -rf|…'`): text that is looked for, not run.
const searchPattern = /\b(?:grep|egrep|fgrep|rg|ripgrep|ag|sed|awk)\b[^'"\n]{0,60}['"][^'"\n]{0,300}$/;

export function isSearchPattern(line: string, start: number): boolean {
  return searchPattern.test(line.slice(Math.max(0, start - 400), start));
}

const hashComment = /\.(?:sh|bash|zsh|py|rb|pl|r|ya?ml|toml|conf|cfg|ini|ps1|dockerfile)$/i;
const slashComment = /\.(?:js|mjs|cjs|ts|tsx|jsx|go|java|kt|c|h|cc|cpp|rs|swift|cs|php)$/i;
const fence = /^\s{0,3}(```|~~~)/;

/**
 * Lines (1-based) that are comments: whole-line `#` or `//` comments in
 * scripts, and in Markdown the same inside fenced code blocks. A command in a
 * comment is documentation, not something run.
 */
export function findCommentLines(file: string, lines: readonly string[]): Set<number> {
  const out = new Set<number>();
  const markdown = /\.(?:md|markdown|mdx)$/i.test(file);
  const prefix = hashComment.test(file) ? /^\s*#(?!!)/ : slashComment.test(file) ? /^\s*\/\// : /^\s*(?:#(?!!)|\/\/)/;
  let inFence = false;
  lines.forEach((line, i) => {
    if (markdown && fence.test(line)) {
      inFence = !inFence;
      return;
    }
    if ((!markdown || inFence) && prefix.test(line)) out.add(i + 1);
  });
  return out;
}

// Right before the verb, at most one word between: "does not bypass", "must never ignore", "don't ever override".
// "Do not hesitate to ignore …" or "Do not stop; ignore …" are not negations of the match.
const negationBefore = /(?:\b(?:not|never|cannot)|n't)\s+(?:(?:ever|even|try\s+to|attempt\s+to|(?!only\b)\w+ly)\s+)?$/i;

/** A negation governs the match: the text forbids what the rule looks for. */
export function isNegated(line: string, start: number): boolean {
  return negationBefore.test(line.slice(Math.max(0, start - 40), start));
}

/**
 * Matches that name an attack rather than perform it, by rule: a label in a
 * table, a comment or a docstring (`# System prompt override — CRITICAL`).
 * Followed by a colon it is a header introducing the override, and counts.
 */
const namesOnly: Readonly<Record<string, RegExp>> = {
  'inject-system-override': /^system\s+prompt\s+override\b(?!\s*[:=>])/i,
};

/** Lines (1-based) inside Markdown fenced code blocks: shown as written, HTML comments and all. */
export function findFencedLines(lines: readonly string[]): Set<number> {
  const out = new Set<number>();
  let inFence = false;
  lines.forEach((line, i) => {
    if (fence.test(line)) inFence = !inFence;
    else if (inFence) out.add(i + 1);
  });
  return out;
}

/** Why a match counts one severity lower, if it does. */
export function demotionOf(
  rule: ThreatRule,
  line: string,
  start: number,
  end: number,
  opts: { via: ScanVia; comment: boolean },
): string | undefined {
  if (opts.via === 'base64' || rule.category === 'credential-exposure') return undefined;
  if (rule.demoteWhenQuoted && isQuoted(line, start, end)) return 'quoted: probably an example';
  if (isSearchPattern(line, start)) return 'inside a search pattern';
  if (rule.demoteWhenNegated && isNegated(line, start)) return 'negated: the text forbids it';
  if (namesOnly[rule.id]?.test(line.slice(start, end + 10))) return 'names the attack without performing it';
  if (opts.comment && rule.category !== 'prompt-injection') return 'in a comment';
  return undefined;
}

/**
 * Lines (1-based) inside a Markdown HTML comment that spans several lines,
 * after the line that opens it: text a reader of the rendered page never sees.
 */
export function findHiddenCommentLines(file: string, lines: readonly string[]): Set<number> {
  const out = new Set<number>();
  if (!/\.(?:md|markdown|mdx|html?)$/i.test(file)) return out;
  let inside = false;
  lines.forEach((line, i) => {
    if (inside) {
      out.add(i + 1);
      if (line.includes('-->')) inside = false;
      return;
    }
    const open = line.lastIndexOf('<!--');
    inside = open >= 0 && !line.includes('-->', open);
  });
  return out;
}
