import { join } from 'node:path';
import type { DraftLimits } from '../core/patterns/index.js';
import { isProfileName, type ProfileName } from '../core/schema/types.js';
import { badInput, booleanInput, input, splitList, type Env } from './input-values.js';
import { readPublishInputs, type PublishInputs } from './publish-inputs.js';

export type ActionMode = 'validate' | 'curate' | 'update';

/** Everything the Action reads from its runner, in one typed object: the rest of the Action is a function of it. */
export interface ActionInputs {
  mode: ActionMode;
  /** Empty when none was given (a dry run or validate needs none). */
  token: string;
  workspace: string;
  /** The repository's folder inside GITHUB_WORKSPACE ('' for the workspace itself): annotations name files from the workspace. */
  workingDirectory: string;
  /** Empty: the repository's `skills_dir` setting (default `skills`). */
  skillsDir: string;
  /** Undefined: the repository's `profile` setting. */
  profile: ProfileName | undefined;
  changedOnly: boolean;
  scan: boolean;
  dryRun: boolean;
  pushTransitions: boolean;
  /** Undefined: the repository's `consolidate` setting. */
  consolidate: boolean | undefined;
  /** Transcript globs for pattern detection; empty: the repository's `transcripts` setting. */
  transcripts: string[];
  /** `max-drafts`, `min-sessions`, `min-confidence`: override `patterns:` in the config; absent keys keep it. */
  draftLimits: Partial<DraftLimits>;
  /** Empty: the branch the workflow ran on. */
  baseBranch: string;
  extraLabels: string[];
  reportDir: string;
  /** validate: where the SARIF log is written (relative to the workspace); default under the runner's temp folder. */
  sarifFile: string;
  retry: { attempts: number; baseMs: number; maxMs: number };
  /** update: one pull request per source, or per vendored skill. */
  updatePer: 'source' | 'skill';
  /** curate: how proposal pull requests are opened (draft, reviewers, the cap, branch names, signed commits). */
  publish: PublishInputs;
  now: Date;
  github: GitHubEnv;
}

export interface GitHubEnv {
  owner: string;
  repo: string;
  eventName: string;
  eventPath: string;
  apiUrl: string;
  serverUrl: string;
  ref: string;
  sha: string;
  runId: string;
  runnerTemp: string;
}

function numberFrom(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw badInput(name, raw, 'a number ≥ 0');
  return value;
}

/** The draft limits the step sets; each one given replaces the config's `patterns:` value. */
function readDraftLimits(env: Env): Partial<DraftLimits> {
  const limits: Partial<DraftLimits> = {};
  const maxDrafts = input(env, 'max-drafts');
  if (maxDrafts !== '') {
    if (!/^\d+$/.test(maxDrafts)) throw badInput('max-drafts', maxDrafts, 'a whole number ≥ 0 (0 proposes no drafted skill)');
    limits.max_drafts = Number(maxDrafts);
  }
  const minSessions = input(env, 'min-sessions');
  if (minSessions !== '') {
    if (!/^\d+$/.test(minSessions) || Number(minSessions) < 2)
      throw badInput('min-sessions', minSessions, 'a whole number ≥ 2 (a pattern needs at least two sessions to repeat)');
    limits.min_sessions = Number(minSessions);
  }
  const minConfidence = input(env, 'min-confidence');
  if (minConfidence !== '') {
    const value = Number(minConfidence);
    if (!Number.isFinite(value) || value < 0 || value > 1) throw badInput('min-confidence', minConfidence, 'a number from 0 to 1');
    limits.min_confidence = value;
  }
  return limits;
}

function readMode(env: Env): ActionMode {
  const mode = input(env, 'mode') || 'validate';
  if (mode !== 'validate' && mode !== 'curate' && mode !== 'update') throw badInput('mode', mode, '`validate`, `curate` or `update`');
  return mode;
}

function readUpdatePer(env: Env): 'source' | 'skill' {
  const per = input(env, 'update-per') || 'source';
  if (per !== 'source' && per !== 'skill') throw badInput('update-per', per, '`source` or `skill`');
  return per;
}

function readProfile(env: Env): ProfileName | undefined {
  const profile = input(env, 'profile');
  if (profile === '') return undefined;
  if (!isProfileName(profile)) throw badInput('profile', profile, 'portable, spec, claude-code or hermes');
  return profile;
}

function readNow(env: Env): Date {
  const raw = env.SKILLGARDEN_NOW;
  if (raw === undefined || raw === '') return new Date();
  const now = new Date(raw);
  if (Number.isNaN(now.getTime())) throw badInput('SKILLGARDEN_NOW', raw, 'an ISO-8601 time');
  return now;
}

function readGitHub(env: Env): GitHubEnv {
  const repository = env.GITHUB_REPOSITORY ?? '';
  const [owner = '', repo = ''] = repository.split('/');
  return {
    owner,
    repo,
    eventName: env.GITHUB_EVENT_NAME ?? '',
    eventPath: env.GITHUB_EVENT_PATH ?? '',
    apiUrl: (env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/+$/, ''),
    serverUrl: (env.GITHUB_SERVER_URL ?? 'https://github.com').replace(/\/+$/, ''),
    ref: env.GITHUB_REF ?? '',
    sha: env.GITHUB_SHA ?? '',
    runId: env.GITHUB_RUN_ID ?? '',
    runnerTemp: env.RUNNER_TEMP ?? env.TMPDIR ?? '/tmp',
  };
}

/** Reads the step's inputs and the runner's environment; bad values throw `action/bad-input` naming the input. */
export function readInputs(env: Env): ActionInputs {
  const github = readGitHub(env);
  const workspace = input(env, 'working-directory')
    ? join(env.GITHUB_WORKSPACE ?? '.', input(env, 'working-directory'))
    : (env.GITHUB_WORKSPACE ?? process.cwd());
  const labels = input(env, 'labels');
  return {
    mode: readMode(env),
    token: input(env, 'token'),
    workspace,
    workingDirectory: input(env, 'working-directory').replace(/^\.\/?|\/+$/g, ''),
    skillsDir: input(env, 'skills-dir'),
    profile: readProfile(env),
    changedOnly: booleanInput(env, 'changed-only', false),
    scan: booleanInput(env, 'scan', true),
    dryRun: booleanInput(env, 'dry-run', false),
    pushTransitions: booleanInput(env, 'push-transitions', false),
    consolidate: booleanInput(env, 'consolidate', undefined),
    transcripts: splitList(input(env, 'transcripts')),
    draftLimits: readDraftLimits(env),
    baseBranch: input(env, 'base'),
    extraLabels: splitList(labels),
    reportDir: input(env, 'report-dir') || join(github.runnerTemp, 'skillgarden'),
    sarifFile: input(env, 'sarif-file') || join(github.runnerTemp, 'skillgarden', 'skillgarden.sarif'),
    retry: {
      attempts: numberFrom(input(env, 'api-retries') || undefined, 'api-retries', 4) + 1,
      baseMs: numberFrom(env.SKILLGARDEN_RETRY_BASE_MS, 'SKILLGARDEN_RETRY_BASE_MS', 1000),
      maxMs: numberFrom(env.SKILLGARDEN_RETRY_MAX_MS, 'SKILLGARDEN_RETRY_MAX_MS', 60_000),
    },
    updatePer: readUpdatePer(env),
    publish: readPublishInputs(env),
    now: readNow(env),
    github,
  };
}
