import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import { proposalPrefix, renderProposalBody, type BranchProposal } from '../services/proposals/index.js';
import { planUpdateProposals, type UpdateProposals } from '../services/vendor/propose-updates.js';
import { commitOnBase, loadBaseFindings } from './commit-proposal.js';
import { hasPersistedAuth, openApi, readBaseBranch, type CurateDeps } from './curate-mode.js';
import { buildAuthEnv, Git } from './git.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo, ModeResult } from './io.js';
import { codeSpan, escapeMarkdown } from './markdown.js';
import {
  decideProposal,
  publishedBranch,
  publishProposal,
  readBranchState,
  startPublishing,
  withdrawProposal,
  type PublishContext,
  type PullOutcome,
} from './publish-proposal.js';
import { setPullOutputs } from './pull-outputs.js';
import { prepareScratch } from './repo-ops.js';
import { runUrl, validateProposal, type BaseFindings } from './validate-proposal.js';

const updatePrefix = `${proposalPrefix}update/`;

/**
 * `mode: update`: every vendored skill of skills-lock.json fetched from its source; each source (or skill) with a
 * skill behind proposed as one pull request, upserted on the next run, never proposed again once declined. A
 * dangerous upstream change is not proposed: the step fails naming its findings, the other units still go out.
 */
export async function runUpdateMode(inputs: ActionInputs, io: ActionIo, deps: CurateDeps = {}): Promise<ModeResult> {
  if (!inputs.dryRun && inputs.token === '') {
    throw new SkillgardenError(
      'action/no-token',
      'mode: update needs a token to push its branches and open pull requests. Pass `token: ${{ secrets.GITHUB_TOKEN }}` and give the job `permissions: contents: write` and `pull-requests: write` (or set `dry-run: true`).',
    );
  }
  const auth = buildAuthEnv(inputs.github.serverUrl, inputs.token);
  const workspace = new Git(inputs.workspace, (await hasPersistedAuth(new Git(inputs.workspace))) ? {} : auth);
  const base = { branch: await readBaseBranch(inputs, workspace), sha: await workspace.text(['rev-parse', 'HEAD']) };
  const scratchDir = mkdtempSync(join(inputs.github.runnerTemp, 'skillgarden-update-'));
  try {
    const scratch = await prepareScratch(new Git(inputs.workspace, auth), scratchDir, base.sha, 'skillgarden-work');
    const planned = await planUpdateProposals(scratchDir, { per: inputs.updatePer, now: inputs.now });
    for (const r of planned.refused) io.annotate({ level: 'error', title: `Upstream change of ${r.name} refused`, message: r.message });
    const publishing = startPublishing(inputs.publish, base.branch, io);
    const outcomes: PullOutcome[] = [];
    if (!inputs.dryRun) {
      const ctx: PublishContext = { api: (deps.openApi ?? openApi)(inputs), git: scratch, base, publishing };
      const baseFindings = loadBaseFindings(scratch, base, inputs);
      for (const proposal of planned.proposals) outcomes.push(...(await proposeUpdate(inputs, io, ctx, proposal, baseFindings)));
      if (planned.refused.length === 0) outcomes.push(...(await withdrawCurrent(ctx, planned)));
    }
    await io.appendSummary(renderSummary(planned, outcomes, inputs.dryRun));
    io.setOutput('pull-requests', JSON.stringify(outcomes));
    setPullOutputs(io, outcomes, publishing.deferred);
    for (const o of outcomes) io.info(`${o.operation} pull request #${o.number} (${o.branch}): ${o.url}`);
    if (planned.refused.length === 0) return {};
    return {
      failure: `The upstream change of ${planned.refused.map((r) => r.name).join(', ')} was refused (the scan or validation): not proposed, the pin left as it is. See the annotations.`,
    };
  } finally {
    rmSync(scratchDir, { recursive: true, force: true });
  }
}

/** One unit's pull request, as the curator's proposals are published: left alone when unchanged or declined. */
async function proposeUpdate(
  inputs: ActionInputs,
  io: ActionIo,
  ctx: PublishContext,
  proposal: BranchProposal,
  baseFindings: () => Promise<BaseFindings | undefined>,
): Promise<PullOutcome[]> {
  const state = await readBranchState(ctx, proposal.branch);
  const decision = decideProposal(state, proposal.fingerprint, ctx.base.sha);
  if (decision.kind === 'declined') {
    io.info(`Not proposing ${state.branch} again: this upstream change was closed without merging in #${decision.pull.number}.`);
    return withdrawProposal(ctx, state, `This upstream change was declined in #${decision.pull.number}.`);
  }
  if (decision.kind === 'edited')
    io.warning(`${state.branch} has commits by someone else: pull request #${decision.pull.number} is left as it is.`);
  if (decision.kind === 'unchanged' || decision.kind === 'edited')
    return [{ branch: state.branch, number: decision.pull.number, url: decision.pull.html_url, operation: 'unchanged' }];
  const findings = await baseFindings();
  const commit = await commitOnBase(ctx.git, proposal, { sha: ctx.base.sha, now: inputs.now });
  const body = renderProposalBody({
    proposal,
    runId: inputs.github.runId || 'update',
    validation: await validateProposal(ctx.git.dir, inputs, findings),
    fullReportUrl: runUrl(inputs),
  });
  const labels = [...new Set([...proposal.labels, ...inputs.extraLabels])];
  const outcome = await publishProposal(ctx, state, { ...proposal, labels }, { commit: async () => commit, body });
  return outcome ? [outcome] : [];
}

/** An open update pull request whose skills are no longer behind (updated by hand, or upstream went back): closed. */
async function withdrawCurrent(ctx: PublishContext, planned: UpdateProposals): Promise<PullOutcome[]> {
  const current = new Set(planned.proposals.map((p) => publishedBranch(ctx, p.branch)));
  const outcomes: PullOutcome[] = [];
  for (const pull of await ctx.api.listOpenPulls()) {
    if (pull.base.ref !== ctx.base.branch || !pull.head.ref.startsWith(updatePrefix) || current.has(pull.head.ref)) continue;
    const state = await readBranchState(ctx, pull.head.ref, { suffixed: true });
    outcomes.push(...(await withdrawProposal(ctx, state, 'The vendored skills this proposed are no longer behind their source.')));
  }
  return outcomes;
}

function renderSummary(planned: UpdateProposals, outcomes: readonly PullOutcome[], dryRun: boolean): string {
  const behind = planned.skills.filter((s) => s.behind);
  const lines = [
    '## Vendored skills',
    '',
    `${behind.length} of ${planned.skills.length} vendored skill(s) behind their source.`,
    '',
    ...behind.map(
      (s) =>
        `- ${codeSpan(s.name)} from ${codeSpan(s.source)}: ${codeSpan(s.from.slice(0, 12))} → ${codeSpan(s.to.slice(0, 12))}, ${s.commits.length} upstream commit(s)`,
    ),
    '',
  ];
  if (planned.refused.length > 0) {
    lines.push(
      '## Refused',
      '',
      ...planned.refused.map((r) => `- ${codeSpan(r.name)}: ${escapeMarkdown(r.message.split('\n')[0] ?? '')}`),
      '',
    );
  }
  lines.push('## Pull requests', '');
  if (dryRun) lines.push(...planned.proposals.map((p) => `- would propose ${escapeMarkdown(p.title)} on ${codeSpan(p.branch)}`));
  else if (outcomes.length === 0) lines.push('None opened or changed.');
  else lines.push(...outcomes.map((o) => `- ${o.operation}: [#${o.number}](${o.url}) on ${codeSpan(o.branch)}`));
  return `${lines.join('\n')}\n`;
}
