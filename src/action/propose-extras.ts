import { proposalPrefix, renderProposalBody, type BranchProposal, type CuratorProposalKind } from '../services/proposals/index.js';
import { checkoutBase, commitOnBase } from './commit-proposal.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo } from './io.js';
import {
  decideProposal,
  publishedBranch,
  publishProposal,
  readBranchState,
  withdrawProposal,
  type PullOutcome,
  type PublishContext,
} from './publish-proposal.js';
import { checkBranchName } from './repo-ops.js';
import { runUrl, validateProposal, type BaseFindings } from './validate-proposal.js';

export interface ExtrasInput {
  inputs: ActionInputs;
  io: ActionIo;
  /** Where the proposals are built (the scratch clone) and published, and on which base. */
  ctx: PublishContext;
  runId: string;
  /** Umbrellas and drafted skills, built from this run's plans and patterns. */
  jobs: readonly BranchProposal[];
  /** The kinds this run looked for: their open pull requests that it no longer proposes are withdrawn. */
  kinds: readonly Exclude<CuratorProposalKind, 'lifecycle'>[];
  /** The base's findings, read on first use (see loadBaseFindings). */
  baseFindings: () => Promise<BaseFindings | undefined>;
}

/** Umbrella plans and drafted skills, each its own branch, commit and pull request; stale ones of the same kinds withdrawn. */
export async function proposeExtras(x: ExtrasInput): Promise<PullOutcome[]> {
  if (x.kinds.length === 0) return [];
  const { ctx } = x;
  await checkoutBase(ctx.git, ctx.base.sha);
  const outcomes: PullOutcome[] = [];
  for (const job of x.jobs) outcomes.push(...(await proposeOne(x, ctx, job)));
  const prefixes = x.kinds.map((k) => `${proposalPrefix}${k}/`);
  const current = new Set(x.jobs.map((j) => publishedBranch(ctx, j.branch)));
  for (const pull of await ctx.api.listOpenPulls()) {
    // Another base branch's proposals are that base's runs' to withdraw.
    if (pull.base.ref !== ctx.base.branch || !prefixes.some((k) => pull.head.ref.startsWith(k)) || current.has(pull.head.ref)) continue;
    const state = await readBranchState(ctx, pull.head.ref, { suffixed: true });
    outcomes.push(...(await withdrawProposal(ctx, state, `The latest curator run (${x.runId}) no longer proposes this.`)));
  }
  return outcomes;
}

async function proposeOne(x: ExtrasInput, ctx: PublishContext, proposal: BranchProposal): Promise<PullOutcome[]> {
  if (!(await checkBranchName(ctx.git, publishedBranch(ctx, proposal.branch)))) {
    x.io.warning(`Skipped a ${proposal.kind} proposal: git refuses the branch name ${publishedBranch(ctx, proposal.branch)}.`);
    return [];
  }
  const state = await readBranchState(ctx, proposal.branch);
  const decision = decideProposal(state, proposal.fingerprint, ctx.base.sha);
  if (decision.kind === 'edited')
    x.io.warning(`${state.branch} has commits by someone else: pull request #${decision.pull.number} is left as it is.`);
  if (decision.kind === 'unchanged' || decision.kind === 'edited')
    return [{ branch: state.branch, number: decision.pull.number, url: decision.pull.html_url, operation: 'unchanged' }];
  if (decision.kind === 'declined') {
    x.io.info(`Not proposing ${proposal.branch} again: it was closed without merging in #${decision.pull.number}.`);
    return withdrawProposal(ctx, state, `This proposal was declined in #${decision.pull.number}.`);
  }
  const baseFindings = await x.baseFindings();
  const commit = await commitOnBase(ctx.git, proposal, { sha: ctx.base.sha, now: x.inputs.now });
  const body = renderProposalBody({
    proposal,
    runId: x.runId,
    validation: await validateProposal(ctx.git.dir, x.inputs, baseFindings),
    fullReportUrl: runUrl(x.inputs),
  });
  const outcome = await publishProposal(ctx, state, proposal, { commit: async () => commit, body });
  return outcome ? [outcome] : [];
}
