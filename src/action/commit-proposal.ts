import { SkillgardenError } from '../core/errors.js';
import { commitProposalIn, type BranchProposal } from '../services/proposals/index.js';
import type { Git } from './git.js';
import type { ActionInputs } from './inputs.js';
import { readBaseFindings, type BaseFindings } from './validate-proposal.js';

/**
 * The proposal's one commit on the base, made by the shared proposal writer
 * (as the CLI writes a local proposal branch), then checked out in the
 * scratch clone so its tree can be validated before anything is pushed.
 */
export async function commitOnBase(git: Git, proposal: BranchProposal, base: { sha: string; now: Date }): Promise<string> {
  await checkoutBase(git, base.sha);
  const commit = await commitProposalIn(git.dir, proposal, { base: base.sha, now: base.now });
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

/**
 * The base's findings, read once and only when a proposal is about to be
 * published (a run whose proposals are all unchanged never validates the
 * library): the scratch clone is put back on the base to read them.
 */
export function loadBaseFindings(
  git: Git,
  base: { sha: string; branch: string },
  inputs: ActionInputs,
): () => Promise<BaseFindings | undefined> {
  let loaded: Promise<BaseFindings | undefined> | undefined;
  return () => {
    loaded ??= checkoutBase(git, base.sha).then(() => readBaseFindings(git.dir, inputs, base.branch));
    return loaded;
  };
}
