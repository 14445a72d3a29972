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
}

/** The few GitHub calls the Action makes; tests run them against a fake GitHub on 127.0.0.1. */
export interface GitHubApi {
  listPulls(branch: string): Promise<PullRequest[]>;
  /** Open pull requests (the first 100): how stale proposals of a kind are found. */
  listOpenPulls(): Promise<PullRequest[]>;
  createPull(input: { branch: string; base: string; title: string; body: string }): Promise<PullRequest>;
  updatePull(number: number, input: { title?: string; body?: string; state?: 'open' | 'closed' }): Promise<PullRequest>;
  addLabels(number: number, labels: readonly string[]): Promise<void>;
  comment(number: number, body: string): Promise<void>;
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
  const call = async <T>(route: string, params: Record<string, unknown>): Promise<T> => {
    const outcome = await withRetry(() => octokit.request(route, { ...repo, ...params }), options.retry, options.sleep ?? pause, Date.now);
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
      }),
    updatePull: (number, input) => call('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', { pull_number: number, ...input }),
    addLabels: async (number, labels) => {
      await call('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', { issue_number: number, labels: [...labels] });
    },
    comment: async (number, body) => {
      await call('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { issue_number: number, body });
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
