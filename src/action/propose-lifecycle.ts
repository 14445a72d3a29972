import { renderRunMarkdown } from '../core/report/render-run.js';
import { buildLifecycleFingerprint, buildProposalBranch, renderProposalBody } from '../services/proposals/index.js';
import { commitOnBase } from './commit-proposal.js';
import { runCuratorPass, umbrellaFingerprint, warnEmptyTranscripts, type CuratorPass } from './curator-pass.js';
import type { Git } from './git.js';
import type { GitHubApi } from './github-api.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo } from './io.js';
import {
  decideProposal,
  publishProposal,
  readBranchState,
  withdrawProposal,
  type PublishContext,
  type Publishing,
  type PullOutcome,
} from './publish-proposal.js';
import { runUrl, validateProposal, type BaseFindings } from './validate-proposal.js';

export interface LifecycleInput {
  inputs: ActionInputs;
  io: ActionIo;
  api: GitHubApi;
  scratch: Git;
  base: { branch: string; sha: string };
  scheduled: boolean;
  /** The base's findings, read on first use (see loadBaseFindings). */
  baseFindings: () => Promise<BaseFindings | undefined>;
  publishing: Publishing;
}

/**
 * A dry pass first (reading and planning cost little and open no ledger):
 * its transitions give the lifecycle proposal's fingerprint, so when that is
 * the open pull request's, or one a person declined, nothing more is done.
 * Otherwise a pass that commits nothing returns the transitions as the
 * shared proposal writer's one proposal (the CLI's `curate --propose` writes
 * the same); its one commit is made on the base, validated, and published.
 */
export async function proposeLifecycle(x: LifecycleInput): Promise<{ pass: CuratorPass; outcomes: PullOutcome[] }> {
  const { inputs, io, scratch, base } = x;
  const ctx: PublishContext = { api: x.api, git: scratch, base, publishing: x.publishing };
  const options = { dryRun: true, scheduled: x.scheduled, plan: true };
  let dry = await runCuratorPass(inputs, scratch.dir, options);
  warnEmptyTranscripts(dry.report, inputs, io);
  if (dry.report.gates.blocked_by !== null) return { pass: dry, outcomes: [] };
  // An umbrella a person declined is not proposed again, so it holds nothing back from the lifecycle: plan again without it.
  const declinedUmbrellas = await readDeclinedUmbrellas(ctx, dry);
  if (declinedUmbrellas.size > 0) dry = await runCuratorPass(inputs, scratch.dir, { ...options, declinedUmbrellas });
  // When the plan is all there is to do, the plan is this run's result (nothing was written, nothing needed to be).
  const planned: CuratorPass = { ...dry, report: { ...dry.report, dry_run: false, status: 'completed' } };
  const state = await readBranchState(ctx, buildProposalBranch('lifecycle'));
  if (dry.report.transitions.length === 0)
    return {
      pass: planned,
      outcomes: await withdrawProposal(
        ctx,
        state,
        `The latest curator run (${dry.report.run_id}) found no lifecycle transitions to propose.`,
      ),
    };
  const decision = decideProposal(state, buildLifecycleFingerprint(dry.report.transitions), base.sha);
  if (decision.kind === 'declined') {
    io.info(`Not proposing again: this exact lifecycle proposal was closed without merging in #${decision.pull.number}.`);
    const reason = `The curator's current proposal is the one declined in #${decision.pull.number}, so this one is withdrawn.`;
    return { pass: planned, outcomes: await withdrawProposal(ctx, state, reason) };
  }
  if (decision.kind === 'edited')
    io.warning(`${state.branch} has commits by someone else: pull request #${decision.pull.number} is left as it is.`);
  if (decision.kind === 'unchanged' || decision.kind === 'edited')
    return {
      pass: planned,
      outcomes: [{ branch: state.branch, number: decision.pull.number, url: decision.pull.html_url, operation: 'unchanged' }],
    };
  const pass = await runCuratorPass(inputs, scratch.dir, { ...options, dryRun: false, propose: true, declinedUmbrellas });
  const proposal = pass.lifecycle;
  if (!proposal)
    return {
      pass,
      outcomes: await withdrawProposal(
        ctx,
        state,
        `The latest curator run (${pass.report.run_id}) found no lifecycle transitions to propose.`,
      ),
    };
  const baseFindings = await x.baseFindings();
  const commit = await commitOnBase(scratch, proposal, { sha: base.sha, now: inputs.now });
  const body = renderProposalBody({
    proposal,
    runId: pass.report.run_id,
    validation: validateProposal(scratch.dir, inputs, baseFindings),
    report: renderRunMarkdown(pass.report),
    fullReportUrl: runUrl(inputs),
  });
  const outcome = await publishProposal(ctx, state, proposal, { commit: async () => commit, body });
  return { pass, outcomes: outcome ? [outcome] : [] };
}

/** The fingerprints of the umbrellas holding a transition back whose pull request a person closed without merging. */
async function readDeclinedUmbrellas(ctx: PublishContext, pass: CuratorPass): Promise<Set<string>> {
  const declined = new Set<string>();
  for (const into of new Set(pass.deferred.map((d) => d.umbrella))) {
    const plan = pass.umbrellas.find((p) => p.into === into);
    if (!plan) continue;
    const fingerprint = umbrellaFingerprint(plan);
    const state = await readBranchState(ctx, buildProposalBranch('umbrella', into));
    if (decideProposal(state, fingerprint, ctx.base.sha).kind === 'declined') declined.add(fingerprint);
  }
  return declined;
}
