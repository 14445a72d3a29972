// The one proposal writer (issue #15): the CLI and the Action build, word and commit proposals here.
export * from './branch.js';
export * from './build.js';
export { buildLifecycleBranchProposal, buildLifecycleFingerprint, buildLifecycleText, buildTransitionMoves } from './lifecycle.js';
export type { LifecycleProposalInput, LifecycleText } from './lifecycle.js';
export { kindLabels, readTrailerBlock, type BranchProposal } from './proposal.js';
export { checkProposal, describeRefusal, gateProposals, type GateResult, type ProposalCheck } from './check.js';
export { maxBodyLength, readFingerprint, renderProposalBody, type BodyInput } from './body.js';
export { readProposalStates, type ProposalState, type ProposalStatus } from './state.js';
export {
  commitProposal,
  commitProposalIn,
  declineProposal,
  listProposals,
  writeProposals,
  type ProposalOperation,
  type ProposalOptions,
  type WriteOptions,
  type WrittenProposal,
} from './write.js';
