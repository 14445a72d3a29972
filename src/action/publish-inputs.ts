import { badInput, booleanInput, input, splitList, type Env } from './input-values.js';

/** The `with:` inputs that decide how a proposal's pull request is opened and its commit published. */
export interface PublishInputs {
  draft: boolean;
  /** User logins, without `@`. */
  reviewers: string[];
  /** Team slugs, without the `org/` prefix GitHub does not accept. */
  teamReviewers: string[];
  assignees: string[];
  /** At most this many pull requests created per run (updates of open ones do not count); undefined: no cap. */
  maxPullRequests: number | undefined;
  /** '' (branches as named), `base` (the base branch's name) or a literal appended to every proposal branch. */
  branchSuffix: string;
  /** Commits made through GitHub's git data API, so GitHub signs them (shown as verified). */
  signCommits: boolean;
}

// GitHub's rules for logins: alphanumerics and single inner hyphens, at most 39 characters.
const login = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
const teamSlug = /^[a-z0-9][a-z0-9._-]*$/i;
// A suffix is one ref component git accepts (`git check-ref-format`), kept short and plain.
const suffix = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,38}[A-Za-z0-9])?$/;

function readLogins(env: Env, name: string): string[] {
  const values = splitList(input(env, name)).map((v) => v.replace(/^@/, ''));
  for (const value of values) if (!login.test(value)) throw badInput(name, value, 'GitHub logins, comma- or newline-separated');
  return [...new Set(values)];
}

function readTeams(env: Env): string[] {
  // `org/team` is how people write a team; the API takes the slug alone (as create-pull-request strips it).
  const values = splitList(input(env, 'team-reviewers')).map((v) => v.replace(/^@/, '').replace(/^[^/]+\//, ''));
  for (const value of values) if (!teamSlug.test(value)) throw badInput('team-reviewers', value, 'team slugs (`team` or `org/team`)');
  return [...new Set(values)];
}

function readCap(env: Env): number | undefined {
  const raw = input(env, 'max-pull-requests');
  if (raw === '') return undefined;
  if (!/^\d+$/.test(raw)) throw badInput('max-pull-requests', raw, 'a whole number ≥ 0 (empty: no cap)');
  return Number(raw);
}

function readSuffix(env: Env): string {
  const raw = input(env, 'branch-suffix');
  if (raw === '' || raw === 'base') return raw;
  if (!suffix.test(raw) || raw.includes('..') || raw.endsWith('.lock'))
    throw badInput(
      'branch-suffix',
      raw,
      '`base`, or up to 40 letters, digits, `.`, `_` or `-` (starting and ending with a letter or digit)',
    );
  return raw;
}

export function readPublishInputs(env: Env): PublishInputs {
  return {
    draft: booleanInput(env, 'draft', false),
    reviewers: readLogins(env, 'reviewers'),
    teamReviewers: readTeams(env),
    assignees: readLogins(env, 'assignees'),
    maxPullRequests: readCap(env),
    branchSuffix: readSuffix(env),
    signCommits: booleanInput(env, 'sign-commits', false),
  };
}
