import { buildProposalBranch, type ProposalKind as AnyProposalKind } from '../services/proposals/branch.js';

/** The kinds of proposal the Action opens pull requests for (staged writes come from agents). */
export type ProposalKind = Exclude<AnyProposalKind, 'staged'>;

/** A bot branch for a proposal: the same name the CLI's local proposal writer uses. */
export function buildBranchName(kind: ProposalKind, name = ''): string {
  return buildProposalBranch(kind, name);
}
