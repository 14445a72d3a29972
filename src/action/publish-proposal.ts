import type { GitHubApi, PullRequest } from './github-api.js';
import type { Git } from './git.js';
import { readFingerprint } from './pr-body.js';
import type { Proposal } from './proposal.js';
import { deleteBotBranch, pushBotBranch, readRemoteBranch, type RemoteBranch } from './repo-ops.js';

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

export async function readBranchState(ctx: PublishContext, branch: string): Promise<BranchState> {
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
 * the branch and reuses it.
 */
export async function publishProposal(
  ctx: PublishContext,
  state: BranchState,
  proposal: Proposal,
  build: { commit: () => Promise<string>; body: string },
): Promise<PullOutcome> {
  const commit = await build.commit();
  await pushBotBranch(ctx.git, commit, proposal.branch);
  if (state.open) {
    const updated = await ctx.api.updatePull(state.open.number, { title: proposal.title, body: build.body });
    return { branch: proposal.branch, number: updated.number, url: updated.html_url, operation: 'updated' };
  }
  const created = await ctx.api.createPull({ branch: proposal.branch, base: ctx.base.branch, title: proposal.title, body: build.body });
  await ctx.api.addLabels(created.number, proposal.labels);
  return { branch: proposal.branch, number: created.number, url: created.html_url, operation: 'created' };
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
