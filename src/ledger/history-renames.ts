import type { HistoryCommit } from '../core/ledger/commit-record.js';
import { pairEditedRenames, renameCandidateLimit, unpairedSkillFiles } from '../core/ledger/edited-renames.js';
import type { HistoryWalker } from './history-walker.js';

/**
 * Marks the SKILL.md files that continue one this commit deleted with an edit (core/ledger/edited-renames.ts).
 * Blobs are read only for commits that add and delete SKILL.md files no identical blob explains (a rename by hand,
 * rare in any history), all in one request to the walker's reader; a commit with more pairs to weigh than
 * `renameCandidateLimit` is left unpaired, as git's `diff.renameLimit` leaves it.
 */
export async function markEditedRenames(walker: HistoryWalker, commits: readonly HistoryCommit[]): Promise<void> {
  const found = commits.flatMap((commit) => {
    const unpaired = unpairedSkillFiles(commit);
    return unpaired === null || unpaired.added.length * unpaired.deleted.length > renameCandidateLimit ? [] : [unpaired];
  });
  if (found.length === 0) return;
  const texts = await walker.readBlobs([...new Set(found.flatMap((f) => [...f.added, ...f.deleted].map((c) => c.blob!)))]);
  for (const { added, deleted } of found) {
    const known = <T extends { blob?: string }>(changes: T[]) => changes.filter((c) => texts.has(c.blob!));
    const pairs = pairEditedRenames(
      known(added).map((c) => ({ path: c.path, text: texts.get(c.blob!)! })),
      known(deleted).map((c) => ({ blob: c.blob!, text: texts.get(c.blob!)! })),
    );
    for (const change of added) {
      const from = pairs.get(change.path);
      if (from !== undefined) change.renamedFrom = from;
    }
  }
}
