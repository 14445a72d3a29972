import { posix } from 'node:path';
import { extractLinks } from '../rules/index.js';

export interface RewriteOptions {
  /** Whole-word replacements (skill names, repository paths), applied outside link targets. */
  words?: ReadonlyMap<string, string>;
  /** The new target for a link, or undefined to keep it. */
  mapLink?: (target: string) => string | undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One regex for all words, longest first; a word is bounded by anything but letters, digits, `_` and `-`. */
export function buildWordPattern(words: Iterable<string>): RegExp | undefined {
  const list = [...words].filter(Boolean).sort((a, b) => b.length - a.length || a.localeCompare(b));
  if (list.length === 0) return undefined;
  return new RegExp(`(?<![A-Za-z0-9_-])(?:${list.map(escapeRegExp).join('|')})(?![A-Za-z0-9_-])`, 'g');
}

/**
 * Rewrites link targets through `mapLink` and whole-word mentions through
 * `words`, never one inside the other (a rewritten link that happens to
 * contain an old name is left as the link mapping made it).
 */
export function rewriteText(text: string, options: RewriteOptions): string {
  const pattern = options.words ? buildWordPattern(options.words.keys()) : undefined;
  const replaceWords = (segment: string): string =>
    pattern ? segment.replace(pattern, (word) => options.words?.get(word) ?? word) : segment;
  const lines = text.split('\n');
  const spans = new Map<number, Array<{ start: number; end: number; target: string }>>();
  if (options.mapLink) {
    for (const link of extractLinks(text)) {
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
  if (!pattern && spans.size === 0) return text;
  return lines
    .map((line, index) => {
      const lineSpans = (spans.get(index + 1) ?? []).sort((a, b) => a.start - b.start);
      let out = '';
      let at = 0;
      for (const span of lineSpans) {
        out += replaceWords(line.slice(at, span.start)) + span.target;
        at = span.end;
      }
      return out + replaceWords(line.slice(at));
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
