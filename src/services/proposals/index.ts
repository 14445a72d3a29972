export * from './branch.js';
export * from './build.js';
export { readProposalStates, type ProposalState, type ProposalStatus } from './state.js';
export { declineProposal, listProposals, writeProposals, type ProposalOperation, type WrittenProposal } from './write.js';
