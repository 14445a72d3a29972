import { renderEvidenceSection } from '../core/report/evidence-section.js';
import { renderRunMarkdown } from '../core/report/render-run.js';
import type { ProposalRef } from '../services/curator/curate.js';
import { buildProposalBranch, renderProposalBody, type BranchProposal } from '../services/proposals/index.js';
import { commitOnBase } from './commit-proposal.js';
import type { CuratorPass } from './curator-pass.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo } from './io.js';
import {
  decideProposal,
  publishProposal,
  readBranchState,
  withdrawProposal,
  type PublishContext,
  type PullOutcome,
} from './publish-proposal.js';
import { runUrl, validateProposal, type BaseFindings } from './validate-proposal.js';

export interface LifecycleInput {
  inputs: ActionInputs;
  io: ActionIo;
  ctx: PublishContext;
  /** The run whose lifecycle proposal (if any) this publishes. */
  pass: CuratorPass;
  /** The base's findings, read on first use (see loadBaseFindings). */
  baseFindings: () => Promise<BaseFindings | undefined>;
}

/**
 * The run's lifecycle proposal (the one the CLI's `curate --propose` writes) as
 * the pull request of `skillgarden/lifecycle`: left alone when it is the open
 * pull request's or one a person declined, withdrawn when there is none,
 * otherwise its one commit made on the base, validated, and published.
 */
export async function proposeLifecycle(x: LifecycleInput): Promise<PullOutcome[]> {
  const { inputs, io, ctx, pass } = x;
  const proposal: BranchProposal | undefined = pass.proposals.find((p) => p.kind === 'lifecycle');
  const state = await readBranchState(ctx, buildProposalBranch('lifecycle'));
  if (!proposal)
    return withdrawProposal(ctx, state, `The latest curator run (${pass.report.run_id}) found no lifecycle transitions to propose.`);
  const decision = decideProposal(state, proposal.fingerprint, ctx.base.sha);
  if (decision.kind === 'declined') {
    io.info(`Not proposing again: this exact lifecycle proposal was closed without merging in #${decision.pull.number}.`);
    return withdrawProposal(
      ctx,
      state,
      `The curator's current proposal is the one declined in #${decision.pull.number}, so this one is withdrawn.`,
    );
  }
  if (decision.kind === 'edited')
    io.warning(`${state.branch} has commits by someone else: pull request #${decision.pull.number} is left as it is.`);
  if (decision.kind === 'unchanged' || decision.kind === 'edited')
    return [{ branch: state.branch, number: decision.pull.number, url: decision.pull.html_url, operation: 'unchanged' }];
  const baseFindings = await x.baseFindings();
  const commit = await commitOnBase(ctx.git, proposal, { sha: ctx.base.sha, now: inputs.now });
  const body = renderProposalBody({
    proposal,
    runId: pass.report.run_id,
    validation: await validateProposal(ctx.git.dir, inputs, baseFindings),
    report: renderRunMarkdown(pass.report, pass.report.evidence ? [renderEvidenceSection(pass.report.evidence)] : []),
    fullReportUrl: runUrl(inputs),
  });
  const outcome = await publishProposal(ctx, state, proposal, { commit: async () => commit, body });
  return outcome ? [outcome] : [];
}

/** The proposals whose pull request a person closed without merging (the Action's memory of declines). */
export function readDeclinedPulls(ctx: PublishContext): (refs: readonly ProposalRef[]) => Promise<ReadonlySet<string>> {
  return async (refs) => {
    const declined = new Set<string>();
    for (const ref of refs)
      if (decideProposal(await readBranchState(ctx, ref.branch), ref.fingerprint, ctx.base.sha).kind === 'declined')
        declined.add(ref.fingerprint);
    return declined;
  };
}
