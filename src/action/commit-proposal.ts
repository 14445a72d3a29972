import { SkillgardenError } from '../core/errors.js';
import { openLedger } from '../ledger/open-ledger.js';
import type { PendingProposal } from './extra-proposals.js';
import type { Git } from './git.js';

/**
 * The proposal's one commit, on top of the base and nothing else, in the
 * scratch clone's working tree (left checked out, so the tree can be
 * validated). The commit is the shared proposal writer's: its message and
 * file changes, as the CLI writes them to a local branch.
 */
export async function commitProposal(git: Git, job: PendingProposal, base: { sha: string; now: Date }): Promise<string> {
  await checkoutBase(git, base.sha);
  const ledger = await openLedger(git.dir, { backend: 'isomorphic-git', now: () => base.now });
  try {
    await ledger.commit({ message: job.commit.message, changes: job.commit.changes });
  } finally {
    await ledger.close();
  }
  const [commit = '', parent = ''] = (await git.text(['show', '-s', '--format=%H%n%P', 'HEAD'])).split('\n');
  if (parent !== base.sha)
    throw new SkillgardenError(
      'action/commit-mismatch',
      `The ${job.proposal.kind} proposal did not make exactly one commit on the base; nothing was pushed.`,
      { data: { commit } },
    );
  return commit;
}

export async function checkoutBase(git: Git, sha: string): Promise<void> {
  await git.run(['checkout', '--quiet', '--force', '-B', 'skillgarden-proposal', sha]);
  await git.run(['clean', '--quiet', '-fd']);
}
