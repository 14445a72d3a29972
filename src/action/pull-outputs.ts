import type { ActionIo } from './io.js';
import type { DeferredProposal, PullOutcome } from './publish-proposal.js';

/**
 * The single-pull-request outputs, named as peter-evans/create-pull-request
 * names them, for workflows that act on "the" pull request: the first one
 * the run created, updated or left open (lifecycle comes first), else the
 * first it closed; empty and `none` when it touched none.
 */
export function setPullOutputs(io: ActionIo, outcomes: readonly PullOutcome[], deferred: readonly DeferredProposal[]): void {
  const first = outcomes.find((o) => o.operation !== 'closed') ?? outcomes[0];
  io.setOutput('pull-request-number', first ? String(first.number) : '');
  io.setOutput('pull-request-url', first?.url ?? '');
  io.setOutput('pull-request-operation', first?.operation ?? 'none');
  io.setOutput('pull-request-branch', first?.branch ?? '');
  const open = outcomes.some((o) => o.operation !== 'closed');
  io.setOutput('has-proposals', String(open || deferred.length > 0));
  io.setOutput('deferred-proposals', JSON.stringify(deferred.map(({ branch, kind, title }) => ({ branch, kind, title }))));
}
