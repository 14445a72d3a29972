import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { parse } from 'yaml';
import { buildAction } from '../../scripts/build-action.js';
import { git } from '../helpers/repo.js';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';
import { tempDir, writeTree } from '../helpers/tmp.js';

export const owner = 'garden';
export const repoName = 'skills';
const root = join(import.meta.dirname, '..', '..');

let bundle: Promise<string> | undefined;
let bundleDir: string | undefined;

afterAll(() => {
  if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
  bundle = bundleDir = undefined;
});

/**
 * The Action bundled from the current sources, once per test worker (dist/ may lag behind during
 * development), outside the repository: on a runner no node_modules sits beside dist/, so nothing
 * may resolve from one here either.
 */
export function bundledAction(): Promise<string> {
  bundle ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillgarden-action-bundle-'));
    bundleDir = dir;
    const outfile = join(dir, 'index.js');
    await buildAction(outfile);
    return outfile;
  })();
  return bundle;
}

/** What a test file of the Action needs: the bundled entry, and a fake GitHub per test, closed after it. */
export interface ActionFixture {
  readonly entry: string;
  /** Starts the fake GitHub for `origin`'s repository; one runs at a time (a second call closes the first). */
  github(origin: Origin, options?: { collaborators?: readonly string[] }): Promise<FakeGitHub>;
}

/** Call at a test file's top level: registers the hooks that bundle the Action and close each fake GitHub. */
export function useAction(): ActionFixture {
  let entry: string | undefined;
  let fake: FakeGitHub | undefined;
  beforeAll(async () => {
    entry = await bundledAction();
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  return {
    get entry() {
      if (entry === undefined) throw new Error('useAction(): the Action is bundled in beforeAll; read entry inside a test.');
      return entry;
    },
    async github(origin, options = {}) {
      await fake?.close();
      fake = await startFakeGitHub({ owner, repo: repoName, branchSha: origin.branchSha, bare: origin.bare, ...options });
      return fake;
    },
  };
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

/** Runs the bundle as a runner does: a separate `node` process with the runner's environment. */
export async function runAction(entry: string, env: Record<string, string>): Promise<RunResult> {
  const dir = tempDir('skillgarden-runner-');
  const outputFile = join(dir, 'output');
  const summaryFile = join(dir, 'summary');
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('INPUT_') && !k.startsWith('GITHUB_') && !k.startsWith('SKILLGARDEN_')),
  );
  const child = spawn(process.execPath, [entry], {
    env: {
      ...clean,
      RUNNER_TEMP: dir,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: dir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  return { code, stdout, stderr, outputs: parseOutputs(readFileSync(outputFile, 'utf8')), summary: readFileSync(summaryFile, 'utf8') };
}

/** GITHUB_OUTPUT's `name<<delimiter` blocks. */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /^(.+?)<<(\S+)\n([\s\S]*?)\n\2$/gm;
  for (const m of text.matchAll(re)) out[m[1] as string] = m[3] as string;
  return out;
}

/** `::error file=…,line=…::message` commands from a step's log. */
export function parseAnnotations(stdout: string): { level: string; props: Record<string, string>; message: string }[] {
  return [...stdout.matchAll(/^::(error|warning|notice) ([^:]*)::(.*)$/gm)].map((m) => ({
    level: m[1] as string,
    props: Object.fromEntries((m[2] as string).split(',').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])),
    message: (m[3] as string).replace(/%0A/g, '\n').replace(/%25/g, '%'),
  }));
}

/** The environment a runner gives a step: inputs as INPUT_<NAME> (hyphens kept), action.yml defaults for the rest. */
export function runnerEnv(options: {
  workspace: string;
  apiUrl: string;
  inputs: Record<string, string>;
  event?: { name: string; payload: object };
  ref?: string;
  now?: string;
}): Record<string, string> {
  const defaults = readActionDefaults();
  const inputs = { ...defaults, token: 'ghs_faketoken123', ...options.inputs };
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  const eventDir = tempDir('skillgarden-event-');
  const eventPath = join(eventDir, 'event.json');
  writeFileSync(eventPath, JSON.stringify(options.event?.payload ?? {}));
  return {
    ...env,
    GITHUB_REPOSITORY: `${owner}/${repoName}`,
    GITHUB_EVENT_NAME: options.event?.name ?? 'workflow_dispatch',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_API_URL: options.apiUrl,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_WORKSPACE: options.workspace,
    GITHUB_REF: options.ref ?? 'refs/heads/main',
    GITHUB_SHA: readHead(options.workspace),
    GITHUB_RUN_ID: '4242',
    SKILLGARDEN_NOW: options.now ?? testNow,
    SKILLGARDEN_RETRY_BASE_MS: '5',
    SKILLGARDEN_RETRY_MAX_MS: '30',
  };
}

function readHead(dir: string): string {
  try {
    return git(dir, 'rev-parse', 'HEAD').trim();
  } catch {
    return ''; // the workspace root above a checkout made with `path:`
  }
}

/** action.yml's defaults, as the runner fills them in (`${{ github.token }}` is the token the harness passes). */
export function readActionDefaults(): Record<string, string> {
  const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }> };
  return Object.fromEntries(
    Object.entries(action.inputs).flatMap(([name, spec]) =>
      spec.default === undefined || spec.default.includes('${{') ? [] : [[name, String(spec.default)]],
    ),
  );
}

export const testNow = '2026-11-29T12:00:00.000Z';
const dayMs = 86_400_000;

export interface SkillSpec {
  name: string;
  /** Days before `testNow` the skill was created. */
  age: number;
  actor: 'agent' | 'user';
  extra?: string;
}

export function skillDoc(name: string, extra = ''): string {
  return `---\nname: ${name}\ndescription: Handles ${name} work end to end. Use when ${name} is asked for.\n${extra}---\n# ${name}\n\n1. Do the ${name} steps.\n`;
}

/** A commit made `age` days before the test clock, by an agent (with ledger trailers) or a person. */
export function commitAt(dir: string, message: string, age: number): void {
  const date = `${Math.floor((Date.parse(testNow) - age * dayMs) / 1000)} +0000`;
  git(dir, 'add', '-A');
  const env = ['-c', 'user.name=Ada Test', '-c', 'user.email=ada@example.com'];
  execGitWithDate(dir, [...env, 'commit', '-q', '-m', message], date);
}

function execGitWithDate(dir: string, args: string[], date: string): void {
  execFileSync('git', args, {
    cwd: dir,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export interface Origin {
  bare: string;
  workspace: string;
  /** The head of a branch in the bare origin, or null. */
  branchSha: (branch: string) => string | null;
}

/** A bare origin holding a library built skill by skill at their ages, and a workspace cloned from it (as actions/checkout leaves it). */
export function createOrigin(skills: readonly SkillSpec[], options: { shallow?: boolean } = {}): Origin {
  const work = tempDir('skillgarden-seed-');
  git(work, 'init', '-q', '-b', 'main');
  writeTree(work, { 'README.md': '# skills\n' });
  commitAt(work, 'initial', 400);
  for (const skill of [...skills].sort((a, b) => b.age - a.age)) {
    writeTree(work, { [`skills/${skill.name}/SKILL.md`]: skillDoc(skill.name, skill.extra) });
    const trailers =
      skill.actor === 'agent' ? `\n\nSkill-Action: create\nSkill-Name: ${skill.name}\nSkill-Actor: agent\nSkill-Source: background` : '';
    commitAt(work, `skill(create): ${skill.name}${trailers}`, skill.age);
  }
  const bare = `${tempDir('skillgarden-origin-')}/origin.git`;
  git(work, 'clone', '-q', '--bare', work, bare);
  return { bare, workspace: cloneWorkspace(bare, options), branchSha: (branch) => readBranch(bare, branch) };
}

export function cloneWorkspace(bare: string, options: { shallow?: boolean } = {}): string {
  const workspace = `${tempDir('skillgarden-workspace-')}/repo`;
  git(tempDir(), 'clone', '-q', ...(options.shallow ? ['--depth', '1'] : []), `file://${bare}`, workspace);
  return workspace;
}

export function readBranch(bare: string, branch: string): string | null {
  try {
    return git(bare, 'rev-parse', '--verify', '--quiet', `refs/heads/${branch}`).trim() || null;
  } catch {
    return null;
  }
}
