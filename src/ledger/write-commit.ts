import type { CommitContext } from './commit-context.js';
import type { CommitOptions, CommitResult } from './ledger.js';
import { beginBatch } from './write-batch.js';

/**
 * One commit on the current branch: a batch of one (write-batch.ts). Objects first, ref last:
 * blobs, trees and the commit are written without a lock; then, holding `index.lock` and the
 * branch's `.lock` (in git's order), the commit is published only if the branch still points at
 * our parent, else rebuilt on the new head and tried again. Uncommitted edits are looked for only
 * under the locks: unlocked, the look can land inside another writer's publish (files and index
 * written, ref not yet moved), and a refused commit leaves only unreferenced objects, which
 * `git gc` prunes.
 */
export async function writeCommit(ctx: CommitContext, options: CommitOptions): Promise<CommitResult> {
  const batch = beginBatch(ctx);
  await batch.add(options);
  const { commits, attempts } = await batch.publish();
  return { commit: commits[0]!, attempts };
}
