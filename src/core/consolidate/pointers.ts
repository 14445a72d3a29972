import { listWantedWords } from './rewrite.js';

/**
 * Lines of the umbrella that still name a skill it absorbs (issue #29: the
 * merged text said "use `c-review` instead" of the skill it archived). Names in
 * the section markers and the notice are the umbrella's own bookkeeping; the
 * rest are listed, `SKILL.md:<line>: <text>`, for the reviewer to reword.
 */
export function listPointers(file: string, text: string, absorbed: readonly string[]): string[] {
  if (absorbed.length === 0) return [];
  const wanted = new Set(absorbed);
  const lengths = new Set(absorbed.map((n) => n.length));
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.startsWith('<!-- skillgarden:') || /^\s*(name|absorbed):/.test(line)) return;
    // A path (`references/<member>.md`, the umbrella's own link to a moved body) names a file, not the skill.
    if (listWantedWords(line.replace(/\S*\/\S*/g, ' '), wanted, lengths).length === 0) return;
    const shown = line.trim();
    out.push(`${file}:${i + 1}: ${shown.length > 120 ? `${shown.slice(0, 119)}…` : shown}`);
  });
  return out;
}
