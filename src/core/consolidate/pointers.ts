import { slugAnchor } from './markdown.js';
import { listWantedWords } from './rewrite.js';

/** Where an absorbed member lives in the umbrella: its section's title and anchor. */
export interface PointerTarget {
  name: string;
  title: string;
  anchor: string;
}

/** The members' sections, read from the umbrella itself: each `## Title` the planner wrote above its member's marker. */
export function readSectionTargets(text: string): PointerTarget[] {
  return [...text.matchAll(/^## (.+)\n\n<!-- skillgarden: from the skill (\S+) \(/gm)].map((m) => ({
    name: m[2] as string,
    title: m[1] as string,
    anchor: slugAnchor(m[1] as string),
  }));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The umbrella's own lines: the section markers, its frontmatter bookkeeping, its headings and the list of sections. */
function isOwnLine(line: string, titles: ReadonlySet<string>): boolean {
  if (line.startsWith('<!-- skillgarden:') || /^\s*(name|absorbed):/.test(line) || line.startsWith('One section per task: ')) return true;
  const heading = /^#{1,6}\s+(.*?)\s*$/.exec(line);
  return heading !== null && titles.has(heading[1] as string);
}

/**
 * One body line with every mention of an absorbed member pointed at its
 * section (issue #29: "use `c-review` instead" of the skill the merge
 * archives → "use [C review](#c-review) instead"): a name alone in a code span
 * or standing as a word, and "the X skill" → "the [Title](#anchor) section".
 * A name inside a longer code span (a command, a path) is left as written.
 */
function pointLine(line: string, targets: readonly PointerTarget[]): string {
  let out = line;
  for (const target of targets) {
    const name = target.name;
    if (!out.includes(name)) continue;
    const link = `[${target.title}](#${target.anchor})`;
    const word = `(?:\`${escapeRegExp(name)}\`|(?<![\\w/.\`[#-])${escapeRegExp(name)}(?![\\w/\`\\]-]))`;
    out = out.replace(new RegExp(`${word}( skill\\b)?`, 'g'), (_m, skill: string | undefined) => (skill ? `${link} section` : link));
  }
  return out;
}

/**
 * The umbrella's SKILL.md with the body lines that point at an absorbed member
 * rewritten to point inside the umbrella, where the member has a section to
 * point at. Frontmatter and fenced code are left as written: a command or a
 * YAML value that names a skill is not prose to reword.
 */
export function rewritePointers(text: string): string {
  const targets = readSectionTargets(text);
  if (targets.length === 0) return text;
  const titles = new Set(targets.map((t) => t.title));
  const lines = text.split('\n');
  let inFrontmatter = lines[0] === '---';
  let fence: string | undefined;
  return lines
    .map((line, i) => {
      if (inFrontmatter) {
        if (i > 0 && line === '---') inFrontmatter = false;
        return line;
      }
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (marker !== undefined) {
        if (fence === undefined) fence = marker;
        else if (marker.startsWith(fence)) fence = undefined;
        return line;
      }
      return fence !== undefined || isOwnLine(line, titles) ? line : pointLine(line, targets);
    })
    .join('\n');
}

/**
 * The guard's view of a rewritten umbrella: each pointer link back to the
 * member's name (`[Title](#anchor) section` → `name skill`), so the member's
 * paragraph is found in it as written, names aside.
 */
export function unpointText(text: string): string {
  let out = text;
  for (const { name, title, anchor } of readSectionTargets(text)) {
    const link = `[${title}](#${anchor})`;
    if (out.includes(link)) out = out.split(`${link} section`).join(`${name} skill`).split(link).join(name);
  }
  return out;
}

/**
 * Lines of the umbrella that still name a skill it absorbs after the
 * rewrite (a member with no section of its own, a command, a frontmatter
 * value): listed, `SKILL.md:<line>: <text>`, for the reviewer to reword.
 * The umbrella's own bookkeeping (markers, `absorbed`, its headings and list
 * of sections) is not listed.
 */
export function listPointers(file: string, text: string, absorbed: readonly string[], titles: ReadonlySet<string> = new Set()): string[] {
  if (absorbed.length === 0) return [];
  const wanted = new Set(absorbed);
  const lengths = new Set(absorbed.map((n) => n.length));
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (isOwnLine(line, titles)) return;
    // A path (`references/<member>.md`, the umbrella's own link to a moved body) names a file, not the skill.
    if (listWantedWords(line.replace(/\S*\/\S*/g, ' '), wanted, lengths).length === 0) return;
    const shown = line.trim();
    out.push(`${file}:${i + 1}: ${shown.length > 120 ? `${shown.slice(0, 119)}…` : shown}`);
  });
  return out;
}
