import { isSkillgardenError } from '../core/errors.js';
import { resolveBranchSuffix } from './branch-name.js';
import type { CuratorProposalKind } from '../services/proposals/index.js';
import type { GitHubApi, PullRequest } from './github-api.js';
import type { Git } from './git.js';
import { readFingerprint, type BranchProposal } from '../services/proposals/index.js';
import type { PublishInputs } from './publish-inputs.js';
import { deleteBotBranch, pushBotBranch, readRemoteBranch, type RemoteBranch } from './repo-ops.js';
import { pushSignedCommit } from './signed-commit.js';

/** Put in the body of a pull request the bot closed itself, so the close is never read as a person's decline. */
export const withdrawnMarker = '<!-- skillgarden:withdrawn -->';

export function isWithdrawn(body: string | null | undefined): boolean {
  return typeof body === 'string' && body.includes(withdrawnMarker);
}

export type PullOperation = 'created' | 'updated' | 'unchanged' | 'closed';

export interface PullOutcome {
  branch: string;
  number: number;
  url: string;
  operation: PullOperation;
}

export interface PublishContext {
  api: GitHubApi;
  /** The scratch clone holding the proposal's commits, with `origin` set. */
  git: Git;
  base: { branch: string; sha: string };
  publishing: Publishing;
}

/** A proposal the run did not open because `max-pull-requests` was reached: reported, never dropped. */
export interface DeferredProposal {
  branch: string;
  kind: CuratorProposalKind;
  title: string;
  operation: 'deferred';
}

/** How this run publishes, shared by all its proposals: the inputs, the branch suffix, what the cap still allows. */
export interface Publishing {
  options: PublishInputs;
  suffix: string;
  /** Pull requests this run may still create (Infinity without a cap). */
  remaining: number;
  deferred: DeferredProposal[];
  info: (message: string) => void;
  warn: (message: string) => void;
}

export function startPublishing(
  options: PublishInputs,
  baseBranch: string,
  log: { info: (message: string) => void; warning: (message: string) => void },
): Publishing {
  return {
    options,
    suffix: resolveBranchSuffix(options.branchSuffix, baseBranch),
    remaining: options.maxPullRequests ?? Number.POSITIVE_INFINITY,
    deferred: [],
    info: (message) => log.info(message),
    warn: (message) => log.warning(message),
  };
}

/** The branch a proposal is published on: its name, plus the run's `branch-suffix`. */
export function publishedBranch(ctx: PublishContext, branch: string): string {
  return `${branch}${ctx.publishing.suffix}`;
}

/** What already exists for a proposal's branch: its pull requests (found by head, never by error text) and the pushed commit. */
export interface BranchState {
  branch: string;
  open?: PullRequest;
  pulls: PullRequest[];
  remote: RemoteBranch | null;
}

export type Decision =
  | { kind: 'publish' }
  | { kind: 'unchanged'; pull: PullRequest }
  | { kind: 'declined'; pull: PullRequest }
  | { kind: 'edited'; pull: PullRequest };

/** `name` is the proposal's branch before the suffix (a pull request's own head ref already has it). */
export async function readBranchState(ctx: PublishContext, name: string, options: { suffixed?: boolean } = {}): Promise<BranchState> {
  const branch = options.suffixed ? name : publishedBranch(ctx, name);
  const pulls = await ctx.api.listPulls(branch);
  const open = pulls.find((p) => p.state === 'open');
  return { branch, pulls, ...(open ? { open } : {}), remote: open ? await readRemoteBranch(ctx.git, branch) : null };
}

/**
 * Decided from the fingerprint alone, before the curator commits anything:
 * a proposal closed unmerged is not made again; an open one with the same
 * decisions on the current base is left as it is, and so is one a person
 * has pushed to.
 */
export function decideProposal(state: BranchState, fingerprint: string, baseSha: string): Decision {
  // A pull request the bot closed itself (nothing left to propose that week) was withdrawn, not declined by a person.
  const declined = state.pulls.find(
    (p) => p.state === 'closed' && p.merged_at === null && !isWithdrawn(p.body) && readFingerprint(p.body) === fingerprint,
  );
  if (declined) return { kind: 'declined', pull: declined };
  // A person pushed to the proposal's branch: their commit is never force-pushed away.
  if (state.open && state.remote && !state.remote.byBot) return { kind: 'edited', pull: state.open };
  if (state.open && state.remote?.parent === baseSha && readFingerprint(state.open.body) === fingerprint)
    return { kind: 'unchanged', pull: state.open };
  return { kind: 'publish' };
}

/**
 * Pushes the proposal's one commit, then creates or updates the branch's one
 * pull request. The branch is pushed only after the commit is built and
 * verified, and before the PR call: if that call fails, the next run finds
 * the branch and reuses it. A new pull request past `max-pull-requests` is
 * not opened (nothing is pushed): it is returned as deferred, for the report.
 */
export async function publishProposal(
  ctx: PublishContext,
  state: BranchState,
  proposal: Pick<BranchProposal, 'kind' | 'title' | 'labels'>,
  build: { commit: () => Promise<string>; body: string },
): Promise<PullOutcome | null> {
  const { publishing } = ctx;
  if (!state.open && publishing.remaining <= 0) {
    publishing.deferred.push({ branch: state.branch, kind: proposal.kind, title: proposal.title, operation: 'deferred' });
    publishing.info(`Not opening ${state.branch}: this run reached max-pull-requests; the next run proposes it.`);
    return null;
  }
  await pushProposalCommit(ctx, state.branch, await build.commit());
  if (state.open) {
    const updated = await ctx.api.updatePull(state.open.number, { title: proposal.title, body: build.body });
    return { branch: state.branch, number: updated.number, url: updated.html_url, operation: 'updated' };
  }
  const created = await ctx.api.createPull({
    branch: state.branch,
    base: ctx.base.branch,
    title: proposal.title,
    body: build.body,
    draft: publishing.options.draft,
  });
  publishing.remaining--;
  await ctx.api.addLabels(created.number, proposal.labels);
  await requestPeople(ctx, created.number);
  return { branch: state.branch, number: created.number, url: created.html_url, operation: 'created' };
}

/** `git push` of the local commit, or (sign-commits) the same commit made by GitHub through its API. */
async function pushProposalCommit(ctx: PublishContext, branch: string, commit: string): Promise<void> {
  if (!ctx.publishing.options.signCommits) return pushBotBranch(ctx.git, commit, branch);
  const made = await pushSignedCommit(ctx.api, ctx.git, commit, branch);
  const { verified, reason } = made.verification;
  if (verified) ctx.publishing.info(`GitHub made and signed ${made.sha} on ${branch} (verified).`);
  else
    ctx.publishing.warn(
      `GitHub made ${made.sha} on ${branch} but did not sign it (${reason}): use the job's GITHUB_TOKEN or a GitHub App token.`,
    );
}

/**
 * Reviewers and assignees, asked for once, when the pull request is
 * created: a person who removed themselves is not added back every week.
 * GitHub refuses some (the token's own user as reviewer, someone without
 * access): the pull request stands, and the warning names who.
 */
async function requestPeople(ctx: PublishContext, number: number): Promise<void> {
  const { reviewers, teamReviewers, assignees } = ctx.publishing.options;
  const attempt = async (what: string, call: () => Promise<void>) => {
    try {
      await call();
    } catch (error) {
      if (!isSkillgardenError(error)) throw error;
      ctx.publishing.warn(`Pull request #${number} is open, but ${what} failed: ${error.message}`);
    }
  };
  if (reviewers.length > 0 || teamReviewers.length > 0)
    await attempt(`requesting reviews from ${[...reviewers, ...teamReviewers.map((t) => `team ${t}`)].join(', ')}`, () =>
      ctx.api.requestReviewers(number, { reviewers, teamReviewers }),
    );
  if (assignees.length > 0) await attempt(`assigning ${assignees.join(', ')}`, () => ctx.api.addAssignees(number, assignees));
}

/** Nothing (new) to propose on this branch: close its open PR with a comment and remove the branch. */
export async function withdrawProposal(ctx: PublishContext, state: BranchState, reason: string): Promise<PullOutcome[]> {
  if (!state.open) return [];
  if (state.remote && !state.remote.byBot) {
    await ctx.api.comment(state.open.number, `${reason} Someone has pushed to this branch, so it is left open for a person to close.`);
    return [];
  }
  await ctx.api.comment(
    state.open.number,
    `${reason} Closing this proposal; the curator opens a new one when there is something to propose.`,
  );
  await ctx.api.updatePull(state.open.number, { state: 'closed', body: `${state.open.body ?? ''}\n\n${withdrawnMarker}\n` });
  await deleteBotBranch(ctx.git, state.branch);
  return [{ branch: state.branch, number: state.open.number, url: state.open.html_url, operation: 'closed' }];
}
