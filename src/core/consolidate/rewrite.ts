import { posix } from 'node:path';
import { extractLinks } from '../rules/index.js';

export interface RewriteOptions {
  /** Whole-word replacements (skill names, repository paths), applied outside link targets. */
  words?: ReadonlyMap<string, string>;
  /** The new target for a link, or undefined to keep it. */
  mapLink?: (target: string) => string | undefined;
}

const runPattern = /[A-Za-z0-9_./-]+/g;
const tokenPattern = /[A-Za-z0-9_-]+/g;

/**
 * Replaces whole words from `words` in one linear pass. A word is a maximal
 * run of letters, digits, `_` and `-` (so `deploy` never matches inside
 * `deploy-staging`); a key holding `/` is a path, matched as a whole run of
 * path characters without its trailing dots. No alternation of thousands of
 * names: that regex would cost names × text.
 */
export function replaceWords(text: string, words: ReadonlyMap<string, string>): string {
  return text.replace(runPattern, (run) => {
    const direct = words.get(run);
    if (direct !== undefined) return direct;
    // Most runs are one plain word, already looked up.
    if (!run.includes('/') && !run.includes('.')) return run;
    const core = run.replace(/\.+$/, '');
    const path = core.includes('/') ? words.get(core) : undefined;
    if (path !== undefined) return path + run.slice(core.length);
    return run.replace(tokenPattern, (token) => words.get(token) ?? token);
  });
}

/** The whole words of a text (see replaceWords) in order, repeats included. */
export function listWordsWithRepeats(text: string): string[] {
  return text.match(tokenPattern) ?? [];
}

function isTokenCode(c: number): boolean {
  // A-Z a-z 0-9 _ -
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
}

/**
 * listWordsWithRepeats(text) kept to the words `wanted` holds, in order: a
 * word of a length no wanted word has is never cut out of the text (most
 * words of a library are shorter than any skill name), so a pass over every
 * file of a library allocates a string only for a likely mention.
 */
export function listWantedWords(
  text: string,
  wanted: ReadonlySet<string> | ReadonlyMap<string, unknown>,
  lengths: ReadonlySet<number>,
): string[] {
  const out: string[] = [];
  const n = text.length;
  for (let i = 0; i < n;) {
    if (!isTokenCode(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n && isTokenCode(text.charCodeAt(j))) j++;
    if (lengths.has(j - i)) {
      const word = text.slice(i, j);
      if (wanted.has(word)) out.push(word);
    }
    i = j;
  }
  return out;
}

/**
 * Rewrites link targets through `mapLink` and whole-word mentions through
 * `words`, never one inside the other (a rewritten link that happens to
 * contain an old name is left as the link mapping made it).
 */
export function rewriteText(text: string, options: RewriteOptions): string {
  const words = options.words !== undefined && options.words.size > 0 ? options.words : undefined;
  const replace = (segment: string): string => (words ? replaceWords(segment, words) : segment);
  const links = options.mapLink ? extractLinks(text) : [];
  // Most texts a plan moves hold no link and no mention to rewrite: returned as they are, never cut into lines.
  if (!words && links.length === 0) return text;
  const lines = text.split('\n');
  const spans = new Map<number, Array<{ start: number; end: number; target: string }>>();
  if (options.mapLink) {
    for (const link of links) {
      const next = options.mapLink(link.target);
      if (next === undefined) continue;
      const list = spans.get(link.line) ?? [];
      const line = lines[link.line - 1] ?? '';
      const start = locateTarget(line, link.target, link.column - 1);
      if (start === -1) continue;
      const wrapped = line[start] === '<' && !link.target.startsWith('<');
      list.push({ start, end: start + link.target.length + (wrapped ? 2 : 0), target: wrapped ? `<${next}>` : next });
      spans.set(link.line, list);
    }
  }
  if (!words && spans.size === 0) return text;
  return lines
    .map((line, index) => {
      const lineSpans = (spans.get(index + 1) ?? []).sort((a, b) => a.start - b.start);
      let out = '';
      let at = 0;
      for (const span of lineSpans) {
        out += replace(line.slice(at, span.start)) + span.target;
        at = span.end;
      }
      return out + replace(line.slice(at));
    })
    .join('\n');
}

/**
 * Where the target really starts: extractLinks reports the first occurrence
 * of the target text in the link, which is the link text in
 * `[references/a.md](references/a.md)`. The target follows `](` or `]:`,
 * maybe with spaces and a `<`.
 */
function locateTarget(line: string, target: string, from: number): number {
  for (let at = line.indexOf(target, Math.max(0, from - 1)); at !== -1; at = line.indexOf(target, at + 1)) {
    const before = line.slice(0, at).replace(/[ \t]*<?$/, '');
    const start = line[at - 1] === '<' ? at - 1 : at;
    if (before.endsWith('](') || before.endsWith(']:')) return start;
  }
  return -1;
}

/** Splits a link target into its path and its `?query#anchor` suffix. */
export function splitTarget(target: string): { path: string; suffix: string } {
  const cut = target.search(/[?#]/);
  return cut === -1 ? { path: target, suffix: '' } : { path: target.slice(0, cut), suffix: target.slice(cut) };
}

/** The repository path a relative link in `file` points at, or undefined for URLs, anchors and templates. */
export function resolveRepoLink(file: string, target: string): { path: string; suffix: string } | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//') || target.startsWith('#') || target === '') return undefined;
  if (/[${}]/.test(target) || target.startsWith('/') || target.startsWith('~')) return undefined;
  const { path, suffix } = splitTarget(target);
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    /* a stray % is read literally */
  }
  const joined = posix.normalize(posix.join(posix.dirname(file), decoded.replace(/\\/g, '/'))).replace(/\/$/, '');
  return { path: joined, suffix };
}

/** A relative link from `file` to repository path `to`. */
export function relativeLink(file: string, to: string): string {
  const rel = posix.relative(posix.dirname(file), to);
  return rel === '' ? posix.basename(to) : rel;
}
