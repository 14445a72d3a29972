import { getOctokit } from '@actions/github';
import { SkillgardenError } from '../core/errors.js';
import { withRetry, type RetryPolicy } from './retry.js';

/** The fields of a pull request the Action reads. */
export interface PullRequest {
  number: number;
  html_url: string;
  state: 'open' | 'closed';
  merged_at: string | null;
  title: string;
  body: string | null;
  head: { ref: string; sha: string };
  base: { ref: string };
  draft?: boolean;
}

/** A file of a commit made through the git data API: a blob's id, or null to delete the path. */
export interface TreeEntry {
  path: string;
  mode: '100644' | '100755' | '120000' | '160000';
  type: 'blob' | 'commit';
  sha: string | null;
}

/** A commit GitHub made (and signed) for the Action: its id, its tree, and GitHub's verdict on its signature. */
export interface ApiCommit {
  sha: string;
  tree: { sha: string };
  parents: { sha: string }[];
  verification: { verified: boolean; reason: string };
}

/** The few GitHub calls the Action makes; tests run them against a fake GitHub on 127.0.0.1. */
export interface GitHubApi {
  listPulls(branch: string): Promise<PullRequest[]>;
  /** Open pull requests (the first 100): how stale proposals of a kind are found. */
  listOpenPulls(): Promise<PullRequest[]>;
  createPull(input: { branch: string; base: string; title: string; body: string; draft: boolean }): Promise<PullRequest>;
  updatePull(number: number, input: { title?: string; body?: string; state?: 'open' | 'closed' }): Promise<PullRequest>;
  addLabels(number: number, labels: readonly string[]): Promise<void>;
  comment(number: number, body: string): Promise<void>;
  requestReviewers(number: number, input: { reviewers: readonly string[]; teamReviewers: readonly string[] }): Promise<void>;
  addAssignees(number: number, assignees: readonly string[]): Promise<void>;
  /** The git data API (sign-commits): GitHub signs the commits it creates itself. */
  createBlob(base64: string): Promise<string>;
  createTree(baseTree: string, entries: readonly TreeEntry[]): Promise<string>;
  createCommit(input: { message: string; tree: string; parents: readonly string[] }): Promise<ApiCommit>;
  /** The commit a branch points at, or null when there is no such branch (404). */
  readBranchHead(branch: string): Promise<string | null>;
  /** Points a branch at a commit, creating it when absent; `force` allows a non-fast-forward move. */
  writeBranchHead(branch: string, sha: string, options: { exists: boolean; force: boolean }): Promise<void>;
}

export interface GitHubApiOptions {
  token: string;
  apiUrl: string;
  owner: string;
  repo: string;
  retry: RetryPolicy;
  sleep?: (ms: number) => Promise<void>;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function openGitHubApi(options: GitHubApiOptions): GitHubApi {
  const octokit = getOctokit(options.token, { baseUrl: options.apiUrl });
  const repo = { owner: options.owner, repo: options.repo };
  const attempt = (route: string, params: Record<string, unknown>) =>
    withRetry(() => octokit.request(route, { ...repo, ...params }), options.retry, options.sleep ?? pause, Date.now);
  const call = async <T>(route: string, params: Record<string, unknown>): Promise<T> => {
    const outcome = await attempt(route, params);
    if (outcome.failure) throw explainFailure(route, outcome.failure);
    return outcome.value?.data as T;
  };
  return {
    listPulls: (branch) => call('GET /repos/{owner}/{repo}/pulls', { head: `${options.owner}:${branch}`, state: 'all', per_page: 100 }),
    listOpenPulls: () => call('GET /repos/{owner}/{repo}/pulls', { state: 'open', per_page: 100 }),
    createPull: (input) =>
      call('POST /repos/{owner}/{repo}/pulls', {
        head: input.branch,
        base: input.base,
        title: input.title,
        body: input.body,
        // Sent only when asked for: GitHub refuses `draft` on plans without draft pull requests.
        ...(input.draft ? { draft: true } : {}),
      }),
    updatePull: (number, input) => call('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', { pull_number: number, ...input }),
    addLabels: async (number, labels) => {
      await call('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', { issue_number: number, labels: [...labels] });
    },
    comment: async (number, body) => {
      await call('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { issue_number: number, body });
    },
    requestReviewers: async (number, input) => {
      await call('POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', {
        pull_number: number,
        ...(input.reviewers.length > 0 ? { reviewers: [...input.reviewers] } : {}),
        ...(input.teamReviewers.length > 0 ? { team_reviewers: [...input.teamReviewers] } : {}),
      });
    },
    addAssignees: async (number, assignees) => {
      await call('POST /repos/{owner}/{repo}/issues/{issue_number}/assignees', { issue_number: number, assignees: [...assignees] });
    },
    createBlob: async (base64) =>
      (await call<{ sha: string }>('POST /repos/{owner}/{repo}/git/blobs', { content: base64, encoding: 'base64' })).sha,
    createTree: async (baseTree, entries) =>
      (await call<{ sha: string }>('POST /repos/{owner}/{repo}/git/trees', { base_tree: baseTree, tree: [...entries] })).sha,
    // No author or committer: GitHub then commits as the token's identity and signs the commit itself.
    createCommit: (input) =>
      call('POST /repos/{owner}/{repo}/git/commits', { message: input.message, tree: input.tree, parents: [...input.parents] }),
    readBranchHead: async (branch) => {
      const route = 'GET /repos/{owner}/{repo}/git/ref/{ref}';
      const outcome = await attempt(route, { ref: `heads/${branch}` });
      if (outcome.failure?.http?.status === 404) return null;
      if (outcome.failure) throw explainFailure(route, outcome.failure);
      return (outcome.value?.data as { object: { sha: string } }).object.sha;
    },
    writeBranchHead: async (branch, sha, { exists, force }) => {
      if (exists) await call('PATCH /repos/{owner}/{repo}/git/refs/{ref}', { ref: `heads/${branch}`, sha, force });
      else await call('POST /repos/{owner}/{repo}/git/refs', { ref: `refs/heads/${branch}`, sha });
    },
  };
}

/** What failed, by status code (never by the answer's wording), and what to do about it. */
function explainFailure(route: string, failure: { error: unknown; http: { status: number } | null; attempts: number }): SkillgardenError {
  const status = failure.http?.status;
  const tries = failure.attempts > 1 ? ` after ${failure.attempts} tries` : '';
  const data = { route, status, attempts: failure.attempts };
  if (status === undefined)
    return new SkillgardenError('action/github-unreachable', `${route} failed${tries}: ${(failure.error as Error).message}`, {
      data,
      cause: failure.error,
    });
  if (status === 401)
    return new SkillgardenError(
      'action/github-unauthorized',
      `${route} answered 401: the token is missing or invalid. Pass \`token: \${{ secrets.GITHUB_TOKEN }}\` (the default) or a valid token.`,
      { data },
    );
  if (status === 403 && failure.attempts === 1) {
    return new SkillgardenError(
      'action/github-forbidden',
      `${route} answered 403: the token may not do this. Give the job \`permissions: pull-requests: write\` and \`contents: write\`, and turn on "Allow GitHub Actions to create and approve pull requests" (Settings → Actions → General).`,
      { data },
    );
  }
  if (status === 403 || status === 429 || status >= 500) {
    return new SkillgardenError(
      'action/github-unavailable',
      `${route} kept failing with ${status}${tries} (GitHub unavailable or rate-limited). Nothing half-done was left: run the workflow again later.`,
      { data },
    );
  }
  return new SkillgardenError('action/github-failed', `${route} answered ${status}${tries}: ${(failure.error as Error).message}`, {
    data,
    cause: failure.error,
  });
}
