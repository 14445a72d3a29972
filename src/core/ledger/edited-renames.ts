import { isSkillFile } from './skill-paths.js';
import type { HistoryCommit, PathChange } from './commit-record.js';

/**
 * Renames that edit the file. A skill renamed by hand is a `git mv` and an edit of `name:` (the spec wants it equal
 * to the folder's name), so the SKILL.md that arrives is not the blob that left, and matching blobs alone took it
 * for a new skill: its creation, provenance and evidence were lost. Git pairs such files by content similarity
 * (`git log -M`, 50 % by default); this does the same for SKILL.md files only, by lines, with both backends.
 */

/**
 * The most added × deleted SKILL.md files a commit may have for pairing by content: a reorganisation that adds
 * and deletes hundreds of unrelated skills at once is not a rename (git's `diff.renameLimit` has the same role).
 */
export const renameCandidateLimit = 100_000;

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
  return shareInCommon(countLines(a), countLines(b));
}

interface LineCounts {
  total: number;
  counts: Map<string, number>;
}

function countLines(text: string): LineCounts {
  const counts = new Map<string, number>();
  let total = 0;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    counts.set(line, (counts.get(line) ?? 0) + 1);
    total += 1;
  }
  return { total, counts };
}

function shareInCommon(a: LineCounts, b: LineCounts): number {
  const longest = Math.max(a.total, b.total);
  if (longest === 0) return 1;
  let common = 0;
  for (const [line, n] of a.counts) common += Math.min(n, b.counts.get(line) ?? 0);
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
  const left = added.map((a) => ({ path: a.path, lines: countLines(a.text) }));
  const right = deleted.map((d) => ({ blob: d.blob, lines: countLines(d.text) }));
  const scored = left.flatMap((a) => right.map((d) => ({ path: a.path, blob: d.blob, score: shareInCommon(a.lines, d.lines) })));
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
