import type { GitHubApi, PullRequest } from './github-api.js';
import type { Git } from './git.js';
import { readFingerprint } from './pr-body.js';
import type { Proposal } from './proposal.js';
import { deleteBotBranch, pushBotBranch, readRemoteBranch } from './repo-ops.js';

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

export type PublishResult = { outcomes: PullOutcome[]; declined?: PullRequest };

/**
 * Creates or updates the one pull request of a proposal's branch. The PR is
 * found by its head before anything is created (no duplicates on re-runs);
 * a proposal whose PR was closed unmerged is not made again. The branch is
 * pushed only after the commit is built and verified, and before the PR
 * call: if that call fails, the next run finds the branch and reuses it.
 */
export async function publishProposal(ctx: PublishContext, proposal: Proposal, build: { commit: () => Promise<string>; body: string }): Promise<PublishResult> {
  const pulls = await ctx.api.listPulls(proposal.branch);
  const open = pulls.find((p) => p.state === 'open');
  const declined = pulls.find((p) => p.state === 'closed' && p.merged_at === null && readFingerprint(p.body) === proposal.fingerprint);
  if (declined) {
    const closed = open ? await closePull(ctx, open, proposal.branch, `The curator's current proposal is the one declined in #${declined.number}, so this one is withdrawn.`) : [];
    return { outcomes: closed, declined };
  }
  const remote = await readRemoteBranch(ctx.git, proposal.branch);
  if (open && remote && remote.parent === ctx.base.sha && readFingerprint(open.body) === proposal.fingerprint) {
    return { outcomes: [{ branch: proposal.branch, number: open.number, url: open.html_url, operation: 'unchanged' }] };
  }
  const commit = await build.commit();
  await pushBotBranch(ctx.git, commit, proposal.branch);
  if (open) {
    const updated = await ctx.api.updatePull(open.number, { title: proposal.title, body: build.body });
    return { outcomes: [{ branch: proposal.branch, number: updated.number, url: updated.html_url, operation: 'updated' }] };
  }
  const created = await ctx.api.createPull({ branch: proposal.branch, base: ctx.base.branch, title: proposal.title, body: build.body });
  await ctx.api.addLabels(created.number, proposal.labels);
  return { outcomes: [{ branch: proposal.branch, number: created.number, url: created.html_url, operation: 'created' }] };
}

/** Nothing to propose on this branch any more: close its open PR with a comment and remove the branch. */
export async function withdrawProposal(ctx: PublishContext, branch: string, reason: string): Promise<PullOutcome[]> {
  const open = (await ctx.api.listPulls(branch)).find((p) => p.state === 'open');
  if (!open) return [];
  return closePull(ctx, open, branch, reason);
}

async function closePull(ctx: PublishContext, pull: PullRequest, branch: string, reason: string): Promise<PullOutcome[]> {
  await ctx.api.comment(pull.number, `${reason} Closing this proposal; the curator opens a new one when there is something to propose.`);
  await ctx.api.updatePull(pull.number, { state: 'closed' });
  await deleteBotBranch(ctx.git, branch);
  return [{ branch, number: pull.number, url: pull.html_url, operation: 'closed' }];
}
