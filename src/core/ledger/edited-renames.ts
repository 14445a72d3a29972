import { isSkillFile } from './skill-paths.js';
import type { HistoryCommit, PathChange } from './commit-record.js';

/**
 * Renames that edit the file. A skill renamed by hand is a `git mv` and an edit of `name:` (the spec wants it equal
 * to the folder's name), so the SKILL.md that arrives is not the blob that left, and matching blobs alone took it
 * for a new skill: its creation, provenance and evidence were lost. Git pairs such files by content similarity
 * (`git log -M`, 50 % by default); this does the same for SKILL.md files only, by lines, with both backends.
 */

/** The least share of lines two SKILL.md files must hold in common to be one skill renamed (git's default: 50 %). */
export const renameSimilarity = 0.5;

/** The added and deleted SKILL.md files of a commit that no blob-identical counterpart explains; null when one side is empty. */
export function unpairedSkillFiles(commit: HistoryCommit): { added: PathChange[]; deleted: PathChange[] } | null {
  const files = commit.changes.filter((c) => c.blob !== undefined && c.status !== 'modified' && isSkillFile(c.path));
  const addedBlobs = new Set(files.filter((c) => c.status === 'added').map((c) => c.blob));
  const deletedBlobs = new Set(files.filter((c) => c.status === 'deleted').map((c) => c.blob));
  const added = files.filter((c) => c.status === 'added' && !deletedBlobs.has(c.blob));
  const deleted = files.filter((c) => c.status === 'deleted' && !addedBlobs.has(c.blob));
  return added.length > 0 && deleted.length > 0 ? { added, deleted } : null;
}

/** The share of the longer text's non-blank lines the other holds too (each line counted as often as it occurs in both). */
export function lineSimilarity(a: string, b: string): number {
  const linesOf = (text: string) => text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const left = linesOf(a);
  const right = linesOf(b);
  const longest = Math.max(left.length, right.length);
  if (longest === 0) return 1;
  const counts = new Map<string, number>();
  for (const line of left) counts.set(line, (counts.get(line) ?? 0) + 1);
  let common = 0;
  for (const line of right) {
    const left = counts.get(line) ?? 0;
    if (left === 0) continue;
    counts.set(line, left - 1);
    common += 1;
  }
  return common / longest;
}

/**
 * Pairs each added SKILL.md with the deleted one it continues: the most similar pair first, each file in one pair at
 * most, none below `renameSimilarity`. Ties between candidates pair nothing: a guess would move one skill's
 * history to another. Returns added path → the deleted blob.
 */
export function pairEditedRenames(
  added: readonly { path: string; text: string }[],
  deleted: readonly { blob: string; text: string }[],
): Map<string, string> {
  const scored = added.flatMap((a) => deleted.map((d) => ({ path: a.path, blob: d.blob, score: lineSimilarity(a.text, d.text) })));
  const candidates = scored.filter((s) => s.score >= renameSimilarity).sort((x, y) => y.score - x.score);
  const pairs = new Map<string, string>();
  // A path or blob settled: paired, or left alone because two candidates tied for it.
  const donePaths = new Set<string>();
  const doneBlobs = new Set<string>();
  for (const c of candidates) {
    if (donePaths.has(c.path) || doneBlobs.has(c.blob)) continue;
    const tied = candidates.some(
      (o) => o !== c && o.score === c.score && !donePaths.has(o.path) && !doneBlobs.has(o.blob) && (o.path === c.path || o.blob === c.blob),
    );
    if (!tied) pairs.set(c.path, c.blob);
    donePaths.add(c.path);
    doneBlobs.add(c.blob);
  }
  return pairs;
}
