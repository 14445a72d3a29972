import { renderRunMarkdown } from '../core/report/render-run.js';
import type { RunReport } from '../core/report/run-report.js';
import { buildBranchName } from './branch-name.js';
import { runCuratorPass, warnEmptyTranscripts, type CuratorPass } from './curator-pass.js';
import type { Git } from './git.js';
import type { GitHubApi } from './github-api.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo } from './io.js';
import { renderProposalBody } from './pr-body.js';
import { buildLifecycleProposal } from './proposal.js';
import {
  decideProposal,
  publishProposal,
  readBranchState,
  withdrawProposal,
  type Publishing,
  type PullOutcome,
} from './publish-proposal.js';
import { commitSquashed } from './repo-ops.js';
import { runUrl, validateProposal, type BaseFindings } from './validate-proposal.js';

export interface LifecycleInput {
  inputs: ActionInputs;
  io: ActionIo;
  api: GitHubApi;
  scratch: Git;
  base: { branch: string; sha: string };
  scheduled: boolean;
  baseFindings?: BaseFindings;
  publishing: Publishing;
}

/**
 * A dry run first (reading and planning cost little; committing each
 * transition costs most): when the plan is the open PR's or a declined one,
 * the real run is skipped. Otherwise the curator commits on the scratch
 * branch and those commits are squashed into the proposal's one commit. The
 * dry pass also plans the umbrellas and drafts: they are proposed against the
 * same base, so the real pass need not plan them again.
 */
export async function proposeLifecycle(x: LifecycleInput): Promise<{ pass: CuratorPass; outcomes: PullOutcome[] }> {
  const { inputs, io, scratch, base } = x;
  const ctx = { api: x.api, git: scratch, base, publishing: x.publishing };
  const dry = await curate(x, true);
  warnEmptyTranscripts(dry.report, inputs, io);
  if (dry.report.gates.blocked_by !== null) return { pass: dry, outcomes: [] };
  // When the plan is all there is to do, the plan is this run's result (nothing was written, nothing needed to be).
  const planned: CuratorPass = { ...dry, report: { ...dry.report, dry_run: false, status: 'completed' } };
  const plannedProposal = buildLifecycleProposal(dry.report, inputs.extraLabels);
  const state = await readBranchState(ctx, buildBranchName('lifecycle'));
  if (!plannedProposal)
    return {
      pass: planned,
      outcomes: await withdrawProposal(ctx, state, `The latest curator run found no lifecycle transitions to propose.`),
    };
  const decision = decideProposal(state, plannedProposal.fingerprint, base.sha);
  if (decision.kind === 'declined') {
    io.info(`Not proposing again: this exact lifecycle proposal was closed without merging in #${decision.pull.number}.`);
    return {
      pass: planned,
      outcomes: await withdrawProposal(
        ctx,
        state,
        `The curator's current proposal is the one declined in #${decision.pull.number}, so this one is withdrawn.`,
      ),
    };
  }
  if (decision.kind === 'edited')
    io.warning(`${state.branch} has commits by someone else: pull request #${decision.pull.number} is left as it is.`);
  if (decision.kind === 'unchanged' || decision.kind === 'edited')
    return {
      pass: planned,
      outcomes: [{ branch: state.branch, number: decision.pull.number, url: decision.pull.html_url, operation: 'unchanged' }],
    };
  const real = await curate(x, false);
  const report: RunReport = { ...real.report, plans: dry.report.plans };
  const pass: CuratorPass = { ...dry, report };
  const proposal = buildLifecycleProposal(report, inputs.extraLabels);
  if (!proposal)
    return {
      pass,
      outcomes: await withdrawProposal(ctx, state, `The latest curator run (${report.run_id}) found no lifecycle transitions to propose.`),
    };
  const body = renderProposalBody({
    proposal,
    runId: report.run_id,
    validation: validateProposal(scratch.dir, inputs, x.baseFindings),
    report: renderRunMarkdown(forProposal(report)),
    fullReportUrl: runUrl(inputs),
  });
  const outcome = await publishProposal(ctx, state, proposal, {
    commit: () => commitSquashed(scratch, { base: base.sha, head: 'HEAD', message: proposal.commitMessage, date: inputs.now }),
    body,
  });
  return { pass, outcomes: outcome ? [outcome] : [] };
}

async function curate(x: LifecycleInput, dryRun: boolean): Promise<CuratorPass> {
  const pass = await runCuratorPass(x.inputs, x.scratch.dir, { dryRun, scheduled: x.scheduled, plan: dryRun });
  pass.report.repo = x.inputs.workspace;
  return pass;
}

/** The scratch clone's commit ids are never pushed: a proposal shows its one squashed commit instead. */
export function forProposal(report: RunReport): RunReport {
  return { ...report, transitions: report.transitions.map((t) => ({ ...t, commit: null })) };
}
