import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import { renderRunMarkdown } from '../core/report/render-run.js';
import type { RunReport } from '../core/report/run-report.js';
import { readConfig } from '../services/curator/read-library.js';
import { runCurator } from '../services/curator/run-curator.js';
import { buildBranchName } from './branch-name.js';
import { readEvent } from './event.js';
import { buildAuthEnv, Git } from './git.js';
import { openGitHubApi, type GitHubApi } from './github-api.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo, ModeResult } from './io.js';
import { codeSpan, escapeMarkdown } from './markdown.js';
import { renderProposalBody } from './pr-body.js';
import { proposeExtras } from './propose-extras.js';
import { buildLifecycleProposal } from './proposal.js';
import {
  decideProposal,
  publishProposal,
  readBranchState,
  startPublishing,
  withdrawProposal,
  type DeferredProposal,
  type Publishing,
  type PullOutcome,
} from './publish-proposal.js';
import { setPullOutputs } from './pull-outputs.js';
import { commitSquashed, ensureFullHistory, prepareScratch, pushToBase } from './repo-ops.js';
import { writeRunReport } from './report-files.js';
import { runUrl, validateProposal } from './validate-proposal.js';
import { readPrimaryRoot } from '../store/layout/discover-library.js';

export interface CurateDeps {
  /** Injected by tests that call the mode in-process; the entry opens the real one. */
  openApi?: (inputs: ActionInputs) => GitHubApi;
}

/** `mode: curate`: the curator on a private clone; its transitions proposed as one pull request (or pushed). */
export async function runCurateMode(inputs: ActionInputs, io: ActionIo, deps: CurateDeps = {}): Promise<ModeResult> {
  checkPreconditions(inputs);
  const auth = buildAuthEnv(inputs.github.serverUrl, inputs.token);
  const workspace = new Git(inputs.workspace, (await hasPersistedAuth(new Git(inputs.workspace))) ? {} : auth);
  if ((await ensureFullHistory(workspace)) === 'fetched')
    io.info('The checkout was shallow: fetched its full history (set `fetch-depth: 0` to skip this step).');
  const base = { branch: await readBaseBranch(inputs, workspace), sha: await workspace.text(['rev-parse', 'HEAD']) };
  const scheduled = readGating(inputs);
  if (inputs.dryRun) {
    const { report } = await runCurator({ repoDir: inputs.workspace, now: inputs.now, dryRun: true, scheduled });
    return finish(inputs, io, report, []);
  }
  const publishing = startPublishing(inputs.publish, base.branch, io);
  const scratchDir = mkdtempSync(join(inputs.github.runnerTemp, 'skillgarden-curate-'));
  try {
    const scratch = await prepareScratch(new Git(inputs.workspace, auth), scratchDir, base.sha, 'skillgarden-work');
    const curate = async (dryRun: boolean) => {
      const { report } = await runCurator({
        repoDir: scratchDir,
        now: inputs.now,
        scheduled,
        dryRun,
        deferFirstRun: inputs.pushTransitions,
      });
      report.repo = inputs.workspace;
      return report;
    };
    const api = () => (deps.openApi ?? openApi)(inputs);
    if (inputs.pushTransitions) {
      const report = await curate(false);
      if (report.commits.length > 0) await pushToBase(scratch, base.branch, [`skillgarden/run/${report.run_id}`]);
      const pushed = { branch: base.branch, sha: await scratch.text(['rev-parse', 'HEAD']) };
      const others = await proposeOthers({ inputs, io, api, scratch, base: pushed, report, publishing });
      return finish(inputs, io, report, others, publishing.deferred);
    }
    const { report, outcomes } = await proposeLifecycle({ inputs, io, api: api(), scratch, base, curate, publishing });
    outcomes.push(...(await proposeOthers({ inputs, io, api, scratch, base, report, publishing })));
    return finish(inputs, io, forProposal(report), outcomes, publishing.deferred);
  } finally {
    rmSync(scratchDir, { recursive: true, force: true });
  }
}

/**
 * Whether the curator's gates apply. With proposals, the workflow's cron is
 * the schedule and a person reviews every change, so only `enabled` and
 * `paused` are honoured: a weekly cron a few seconds early would otherwise
 * miss the 168-hour interval and skip a whole week. Pushing transitions
 * straight to the base keeps every gate, first-run deferral included.
 */
function readGating(inputs: ActionInputs): boolean {
  if (inputs.github.eventName !== 'schedule') return false;
  if (inputs.pushTransitions) return true;
  const { config } = readConfig(inputs.workspace);
  return !config.enabled || config.paused;
}

function checkPreconditions(inputs: ActionInputs): void {
  if (readEvent(inputs.github.eventPath).pullRequest?.fromFork) {
    throw new SkillgardenError(
      'action/fork',
      'mode: curate does not run on a pull request from a fork: it would push with a token a fork must not get. Use mode: validate on pull requests.',
    );
  }
  if (!inputs.dryRun && inputs.token === '') {
    throw new SkillgardenError(
      'action/no-token',
      'mode: curate needs a token to push its branch and open pull requests. Pass `token: ${{ secrets.GITHUB_TOKEN }}` and give the job `permissions: contents: write` and `pull-requests: write` (or set `dry-run: true`).',
    );
  }
}

function openApi(inputs: ActionInputs): GitHubApi {
  return openGitHubApi({
    token: inputs.token,
    apiUrl: inputs.github.apiUrl,
    owner: inputs.github.owner,
    repo: inputs.github.repo,
    retry: inputs.retry,
  });
}

/** actions/checkout leaves its own auth header in the checkout's config; a second one would make GitHub refuse the fetch. */
async function hasPersistedAuth(git: Git): Promise<boolean> {
  const result = await git.run(['config', '--local', '--get-regexp', '^http\\..*\\.extraheader$'], { allowFailure: true });
  return result.code === 0 && result.stdout.trim() !== '';
}

async function readBaseBranch(inputs: ActionInputs, git: Git): Promise<string> {
  if (inputs.baseBranch) return inputs.baseBranch;
  if (inputs.github.ref.startsWith('refs/heads/')) return inputs.github.ref.slice('refs/heads/'.length);
  const current = await git.run(['symbolic-ref', '--quiet', '--short', 'HEAD'], { allowFailure: true });
  if (current.code === 0 && current.stdout.trim()) return current.stdout.trim();
  throw new SkillgardenError(
    'action/no-base',
    `Cannot tell which branch to propose changes to (GITHUB_REF is "${inputs.github.ref}"). Set the \`base\` input.`,
  );
}

/** Umbrellas (`consolidate`) and drafted skills (`transcripts`), when asked for here or in the repository's config. */
async function proposeOthers(x: {
  inputs: ActionInputs;
  io: ActionIo;
  api: () => GitHubApi;
  scratch: Git;
  base: { branch: string; sha: string };
  report: RunReport;
  publishing: Publishing;
}): Promise<PullOutcome[]> {
  if (x.report.gates.blocked_by !== null) return [];
  const { config } = readConfig(x.scratch.dir);
  const consolidate = x.inputs.consolidate ?? config.consolidate;
  const transcripts = x.inputs.transcripts.length > 0 ? x.inputs.transcripts : config.transcripts;
  if (!consolidate && transcripts.length === 0) return [];
  const skillsDir = x.inputs.skillsDir || readPrimaryRoot(x.scratch.dir, config.skills_dir);
  return proposeExtras({
    inputs: x.inputs,
    io: x.io,
    api: x.api(),
    scratch: x.scratch,
    base: x.base,
    runId: x.report.run_id,
    skillsDir,
    consolidate,
    transcripts,
    publishing: x.publishing,
  });
}

interface ProposeInput {
  inputs: ActionInputs;
  io: ActionIo;
  api: GitHubApi;
  scratch: Git;
  base: { branch: string; sha: string };
  curate: (dryRun: boolean) => Promise<RunReport>;
  publishing: Publishing;
}

/**
 * A dry run first (reading and planning cost little; committing each
 * transition costs most): when the plan is the open PR's or a declined one,
 * the real run is skipped. Otherwise the curator commits on the scratch
 * branch and those commits are squashed into the proposal's one commit.
 */
async function proposeLifecycle({
  inputs,
  io,
  api,
  scratch,
  base,
  curate,
  publishing,
}: ProposeInput): Promise<{ report: RunReport; outcomes: PullOutcome[] }> {
  const ctx = { api, git: scratch, base, publishing };
  const dry = await curate(true);
  if (dry.gates.blocked_by !== null) return { report: dry, outcomes: [] };
  // When the plan is all there is to do, the plan is this run's result (nothing was written, nothing needed to be).
  const planned: RunReport = { ...dry, dry_run: false, status: 'completed' };
  const plannedProposal = buildLifecycleProposal(dry, inputs.extraLabels);
  const state = await readBranchState(ctx, buildBranchName('lifecycle'));
  if (!plannedProposal)
    return {
      report: planned,
      outcomes: await withdrawProposal(ctx, state, `The latest curator run found no lifecycle transitions to propose.`),
    };
  const decision = decideProposal(state, plannedProposal.fingerprint, base.sha);
  if (decision.kind === 'declined') {
    io.info(`Not proposing again: this exact lifecycle proposal was closed without merging in #${decision.pull.number}.`);
    return {
      report: planned,
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
      report: planned,
      outcomes: [{ branch: state.branch, number: decision.pull.number, url: decision.pull.html_url, operation: 'unchanged' }],
    };
  const report = await curate(false);
  const proposal = buildLifecycleProposal(report, inputs.extraLabels);
  if (!proposal)
    return {
      report,
      outcomes: await withdrawProposal(ctx, state, `The latest curator run (${report.run_id}) found no lifecycle transitions to propose.`),
    };
  const body = renderProposalBody({
    proposal,
    runId: report.run_id,
    validation: validateProposal(scratch.dir, inputs),
    report: renderRunMarkdown(forProposal(report)),
    fullReportUrl: runUrl(inputs),
  });
  const outcome = await publishProposal(ctx, state, proposal, {
    commit: () => commitSquashed(scratch, { base: base.sha, head: 'HEAD', message: proposal.commitMessage, date: inputs.now }),
    body,
  });
  return { report, outcomes: outcome ? [outcome] : [] };
}

/** The scratch clone's commit ids are never pushed: a proposal shows its one squashed commit instead. */
function forProposal(report: RunReport): RunReport {
  return { ...report, transitions: report.transitions.map((t) => ({ ...t, commit: null })) };
}

async function finish(
  inputs: ActionInputs,
  io: ActionIo,
  report: RunReport,
  outcomes: PullOutcome[],
  deferred: DeferredProposal[] = [],
): Promise<ModeResult> {
  report.prs = [...outcomes, ...deferred];
  const markdown = renderRunMarkdown(report, renderPullSection(outcomes, deferred, inputs.dryRun));
  const reportPath = writeRunReport(join(inputs.reportDir, report.run_id), report, markdown);
  await io.appendSummary(markdown);
  io.setOutput('report-path', reportPath);
  io.setOutput('run-id', report.run_id);
  io.setOutput('status', report.status);
  io.setOutput('pull-requests', JSON.stringify(outcomes));
  setPullOutputs(io, outcomes, deferred);
  io.setOutput('transitions', String(report.transitions.length));
  io.setOutput('archived', String(report.transitions.filter((t) => t.to === 'archived').length));
  io.setOutput('marked-stale', String(report.transitions.filter((t) => t.to === 'stale').length));
  io.setOutput('reactivated', String(report.transitions.filter((t) => t.to === 'active').length));
  for (const o of outcomes) io.info(`${o.operation} pull request #${o.number} (${o.branch}): ${o.url}`);
  return report.status === 'failed'
    ? { failure: `The curator run ${report.run_id} failed: ${report.errors.map((e) => e.message).join('; ')}` }
    : {};
}

function renderPullSection(outcomes: readonly PullOutcome[], deferred: readonly DeferredProposal[], dryRun: boolean): string[] {
  if (dryRun) return ['## Pull requests', '', 'Dry run: no branch was pushed and no pull request was opened.', ''];
  const waiting = deferred.map(
    (d) => `- deferred (max-pull-requests reached; the next run proposes it): ${escapeMarkdown(d.title)} on ${codeSpan(d.branch)}`,
  );
  if (outcomes.length === 0 && waiting.length === 0) return ['## Pull requests', '', 'None opened or changed.', ''];
  return [
    '## Pull requests',
    '',
    ...outcomes.map((o) => `- ${o.operation}: [#${o.number}](${o.url}) on ${codeSpan(o.branch)}`),
    ...waiting,
    '',
  ];
}
