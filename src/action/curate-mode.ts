import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import { describeEmptyLibrary, readConfig } from '../services/curator/read-library.js';
import { buildLifecycleText } from '../services/proposals/index.js';
import { runCuratorPass, warnEmptyTranscripts, type CuratorPass } from './curator-pass.js';
import { readEvent } from './event.js';
import { buildAuthEnv, Git } from './git.js';
import { openGitHubApi, type GitHubApi } from './github-api.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo, ModeResult } from './io.js';
import { previewLifecycle, previewProposals } from './preview.js';
import { proposeExtras } from './propose-extras.js';
import { proposeLifecycle, readDeclinedPulls } from './propose-lifecycle.js';
import { ensureFullHistory, prepareScratch, pushToBase } from './repo-ops.js';
import { finish } from './run-output.js';
import { startPublishing, type PublishContext } from './publish-proposal.js';
import { loadBaseFindings } from './commit-proposal.js';

export interface CurateDeps {
  /** Injected by tests that call the mode in-process; the entry opens the real one. */
  openApi?: (inputs: ActionInputs) => GitHubApi;
}

/**
 * `mode: curate`: one curator run on a private clone; each of its proposals a pull request. With `push-transitions`
 * the lifecycle is committed and pushed to the base instead, and the umbrellas and drafts are proposed on top of it.
 */
export async function runCurateMode(inputs: ActionInputs, io: ActionIo, deps: CurateDeps = {}): Promise<ModeResult> {
  checkPreconditions(inputs);
  // Nothing silently empty, as in validate mode: a schedule over a library it cannot find fails, saying where it looked.
  const empty = describeEmptyLibrary(inputs.workspace, inputs.skillsDir);
  if (empty !== undefined) return { failure: empty };
  const auth = buildAuthEnv(inputs.github.serverUrl, inputs.token);
  const workspace = new Git(inputs.workspace, (await hasPersistedAuth(new Git(inputs.workspace))) ? {} : auth);
  if ((await ensureFullHistory(workspace)) === 'fetched')
    io.info('The checkout was shallow: fetched its full history (set `fetch-depth: 0` to skip this step).');
  const base = { branch: await readBaseBranch(inputs, workspace), sha: await workspace.text(['rev-parse', 'HEAD']) };
  const scheduled = readGating(inputs);
  const scratchDir = mkdtempSync(join(inputs.github.runnerTemp, 'skillgarden-curate-'));
  try {
    if (inputs.dryRun) return await runDryRun({ inputs, io, workspace, base, scheduled, scratchDir });
    const publishing = startPublishing(inputs.publish, base.branch, io);
    const scratch = await prepareScratch(new Git(inputs.workspace, auth), scratchDir, base.sha, 'skillgarden-work');
    const ctx: PublishContext = { api: (deps.openApi ?? openApi)(inputs), git: scratch, base, publishing };
    const propose = !inputs.pushTransitions;
    const pass = await runCuratorPass(inputs, scratchDir, { dryRun: false, scheduled, propose, readDeclined: readDeclinedPulls(ctx) });
    warnEmptyTranscripts(pass.report, inputs, io);
    // Pushed transitions go first: the umbrellas and drafts are proposed on the base they left.
    if (pass.tag !== undefined && pass.report.commits.length > 0) await pushToBase(scratch, base.branch, [pass.tag]);
    if (pass.report.gates.blocked_by !== null) return finish(inputs, io, pass, []);
    const onto = propose ? ctx : { ...ctx, base: { branch: base.branch, sha: await scratch.text(['rev-parse', 'HEAD']) } };
    const baseFindings = loadBaseFindings(scratch, onto.base, inputs);
    const outcomes = propose ? await proposeLifecycle({ inputs, io, ctx, pass, baseFindings }) : [];
    outcomes.push(...(await proposeExtras({ inputs, io, ctx: onto, runId: pass.report.run_id, ...extraJobs(pass), baseFindings })));
    return finish(inputs, io, pass, outcomes, { deferred: publishing.deferred });
  } finally {
    rmSync(scratchDir, { recursive: true, force: true });
  }
}

/** The umbrellas and drafted skills of a run, and the kinds it looked at in full (the lifecycle is proposed on its own). */
function extraJobs(pass: CuratorPass) {
  return {
    jobs: pass.proposals.filter((p) => p.kind !== 'lifecycle'),
    kinds: pass.withdraw.filter((k): k is Exclude<typeof k, 'lifecycle'> => k !== 'lifecycle'),
  };
}

/**
 * `dry-run: true`: the curator on the checkout itself, writing nothing; every
 * proposal it would make (lifecycle, umbrellas, drafts) is committed in a
 * scratch clone only to show its files and diff, and nothing is pushed.
 */
async function runDryRun(x: {
  inputs: ActionInputs;
  io: ActionIo;
  workspace: Git;
  base: { branch: string; sha: string };
  scheduled: boolean;
  scratchDir: string;
}): Promise<ModeResult> {
  // Nothing is asked of GitHub in a dry run: no umbrella counts as declined.
  const pass = await runCuratorPass(x.inputs, x.inputs.workspace, {
    dryRun: true,
    scheduled: x.scheduled,
    readDeclined: async () => new Set(),
  });
  warnEmptyTranscripts(pass.report, x.inputs, x.io);
  if (pass.report.gates.blocked_by !== null) return finish(x.inputs, x.io, pass, []);
  const lifecycle = buildLifecycleText({ transitions: pass.report.transitions, runId: pass.report.run_id, deferred: pass.deferred });
  const { jobs } = extraJobs(pass);
  const previews = [
    ...(lifecycle ? [previewLifecycle(lifecycle)] : []),
    ...(jobs.length > 0
      ? await previewProposals(await prepareScratch(x.workspace, x.scratchDir, x.base.sha, 'skillgarden-preview'), jobs, {
          sha: x.base.sha,
          now: x.inputs.now,
        })
      : []),
  ];
  return finish(x.inputs, x.io, pass, [], { previews });
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

export function openApi(inputs: ActionInputs): GitHubApi {
  return openGitHubApi({
    token: inputs.token,
    apiUrl: inputs.github.apiUrl,
    owner: inputs.github.owner,
    repo: inputs.github.repo,
    retry: inputs.retry,
  });
}

/** actions/checkout leaves its own auth header in the checkout's config; a second one would make GitHub refuse the fetch. */
export async function hasPersistedAuth(git: Git): Promise<boolean> {
  const result = await git.run(['config', '--local', '--get-regexp', '^http\\..*\\.extraheader$'], { allowFailure: true });
  return result.code === 0 && result.stdout.trim() !== '';
}

export async function readBaseBranch(inputs: ActionInputs, git: Git): Promise<string> {
  if (inputs.baseBranch) return inputs.baseBranch;
  if (inputs.github.ref.startsWith('refs/heads/')) return inputs.github.ref.slice('refs/heads/'.length);
  const current = await git.run(['symbolic-ref', '--quiet', '--short', 'HEAD'], { allowFailure: true });
  if (current.code === 0 && current.stdout.trim()) return current.stdout.trim();
  throw new SkillgardenError(
    'action/no-base',
    `Cannot tell which branch to propose changes to (GITHUB_REF is "${inputs.github.ref}"). Set the \`base\` input.`,
  );
}
