import * as fs from 'node:fs';
import git from 'isomorphic-git';
import type { HistoryCommit } from '../core/ledger/commit-record.js';
import { pairEditedRenames, unpairedSkillFiles } from '../core/ledger/edited-renames.js';

/**
 * Marks the SKILL.md files that continue one this commit deleted with an edit (core/ledger/edited-renames.ts).
 * Blobs are read only for commits that add and delete SKILL.md files no identical blob explains: a rename by
 * hand, rare in any history. isomorphic-git reads them for both backends (loose or packed): one path, a few reads.
 */
export async function markEditedRenames(gitdir: string, commits: readonly HistoryCommit[]): Promise<void> {
  const cache = {};
  const read = async (oid: string): Promise<string | undefined> => {
    try {
      return Buffer.from((await git.readBlob({ fs, gitdir, oid, cache })).blob).toString('utf8');
    } catch {
      // A blob a shallow or partial clone lacks: no pair, as without this.
      return undefined;
    }
  };
  for (const commit of commits) {
    const unpaired = unpairedSkillFiles(commit);
    if (unpaired === null) continue;
    const withText = async <T extends { blob?: string }>(change: T) => ({ ...change, blob: change.blob!, text: await read(change.blob!) });
    const added = (await Promise.all(unpaired.added.map(withText))).filter((c) => c.text !== undefined);
    const deleted = (await Promise.all(unpaired.deleted.map(withText))).filter((c) => c.text !== undefined);
    const pairs = pairEditedRenames(
      added.map((c) => ({ path: c.path, text: c.text! })),
      deleted.map((c) => ({ blob: c.blob, text: c.text! })),
    );
    for (const change of unpaired.added) {
      const from = pairs.get(change.path);
      if (from !== undefined) change.renamedFrom = from;
    }
  }
}
