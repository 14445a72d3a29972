import { SkillgardenError } from '../core/errors.js';
import { openLedger } from '../ledger/open-ledger.js';
import { commitProposal, type BranchProposal } from '../services/proposals/index.js';
import type { Git } from './git.js';

/**
 * The proposal's one commit on the base, made by the shared proposal writer
 * (as the CLI writes a local proposal branch), then checked out in the
 * scratch clone so its tree can be validated before anything is pushed.
 */
export async function commitOnBase(git: Git, proposal: BranchProposal, base: { sha: string; now: Date }): Promise<string> {
  await checkoutBase(git, base.sha);
  const ledger = await openLedger(git.dir, { backend: 'isomorphic-git', now: () => base.now });
  let commit: string;
  try {
    commit = await commitProposal(ledger, proposal, { base: base.sha });
  } finally {
    await ledger.close();
  }
  const parent = await git.text(['show', '-s', '--format=%P', commit]);
  if (parent !== base.sha)
    throw new SkillgardenError(
      'action/commit-mismatch',
      `The ${proposal.kind} proposal did not make exactly one commit on the base; nothing was pushed.`,
      { data: { commit } },
    );
  await git.run(['checkout', '--quiet', '--force', '-B', 'skillgarden-proposal', commit]);
  return commit;
}

export async function checkoutBase(git: Git, sha: string): Promise<void> {
  await git.run(['checkout', '--quiet', '--force', '-B', 'skillgarden-proposal', sha]);
  await git.run(['clean', '--quiet', '-fd']);
}
