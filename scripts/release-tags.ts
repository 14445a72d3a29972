/**
 * The tags of an Action release, from package.json's version: `vX.Y.Z` for
 * the release and the major tag `vX` moved to it, as actions/typescript-action's
 * `script/release` does (and GitHub's action versioning guide recommends).
 * `.github/workflows/release.yml` runs it.
 *
 *   npx tsx scripts/release-tags.ts plan [--version X.Y.Z]   prints the plan as `key=value` lines (for $GITHUB_OUTPUT)
 *   npx tsx scripts/release-tags.ts tag [--version X.Y.Z] [--remote origin]
 *                                    creates the release tag at HEAD when missing, moves `vX`, pushes both
 *
 * Without `--version`, the version is read from GITHUB_REF (`refs/tags/vX.Y.Z`), else package.json.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkillgardenError } from '../src/core/errors.js';

export interface ReleaseInput {
  /** package.json's `version`. */
  packageVersion: string;
  /** What the release was asked for: `X.Y.Z`, `vX.Y.Z` or `refs/tags/vX.Y.Z`. */
  requested: string;
  /** Every tag of the repository. */
  tags: readonly string[];
  /** The commit the release tag points at when it exists already (a pushed tag), else null. */
  tagCommit: string | null;
  /** The commit being released (the workflow's checkout). */
  head: string;
}

export interface ReleasePlan {
  version: string;
  tag: string;
  major: string;
  prerelease: boolean;
  /** False when the tag was pushed already (the tag-push trigger): it is then only checked. */
  createTag: boolean;
  /** False for a prerelease and for a release older than the newest of its major (a backport never moves `vX` back). */
  moveMajor: boolean;
  /** Why `vX` stays where it is, when it does. */
  note: string;
}

const semver = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

function parseVersion(version: string): { parts: [number, number, number]; pre: string | undefined } | null {
  const match = semver.exec(version);
  if (!match) return null;
  return { parts: [Number(match[1]), Number(match[2]), Number(match[3])], pre: match[4] };
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

/** Pure: what to tag, or a `release/*` error saying what is wrong and what to do. */
export function planRelease(input: ReleaseInput): ReleasePlan {
  const version = input.requested
    .trim()
    .replace(/^refs\/tags\//, '')
    .replace(/^v/, '');
  const parsed = parseVersion(version);
  if (!parsed)
    throw new SkillgardenError(
      'release/bad-version',
      `"${input.requested}" is not a release version: give X.Y.Z (or vX.Y.Z, optionally -prerelease), as in package.json.`,
      { data: { requested: input.requested } },
    );
  if (version !== input.packageVersion)
    throw new SkillgardenError(
      'release/version-mismatch',
      `The release is ${version} but package.json's version is ${input.packageVersion}: set "version": "${version}" in package.json, commit it, then release that commit.`,
      { data: { version, packageVersion: input.packageVersion } },
    );
  const tag = `v${version}`;
  const major = `v${parsed.parts[0]}`;
  const exists = input.tags.includes(tag);
  if (exists && input.tagCommit !== input.head)
    throw new SkillgardenError(
      'release/tag-elsewhere',
      `${tag} already exists on ${input.tagCommit?.slice(0, 12) ?? 'another commit'}, not on the commit being released (${input.head.slice(0, 12)}): release a new version instead of moving a published tag.`,
      { data: { tag, tagCommit: input.tagCommit, head: input.head } },
    );
  const prerelease = parsed.pre !== undefined;
  const newer = input.tags
    .map((t) => ({ tag: t, parsed: parseVersion(t.replace(/^v/, '')) }))
    .filter((t) => t.tag.startsWith('v') && t.parsed && t.parsed.pre === undefined && t.parsed.parts[0] === parsed.parts[0])
    .filter((t) => compare(t.parsed?.parts ?? [], parsed.parts) > 0)
    .map((t) => t.tag);
  const note = prerelease
    ? `${tag} is a prerelease: ${major} stays where it is.`
    : newer.length > 0
      ? `${newer.join(', ')} is newer than ${tag}: ${major} stays on the newest release.`
      : '';
  return { version, tag, major, prerelease, createTag: !exists, moveMajor: note === '', note };
}

/** `key=value` lines, as $GITHUB_OUTPUT reads them. */
export function renderPlan(plan: ReleasePlan): string {
  return `${Object.entries(plan)
    .map(([key, value]) => `${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}=${String(value)}`)
    .join('\n')}\n`;
}

function git(cwd: string, args: readonly string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

export function readRelease(cwd: string, requested: string | undefined, env: NodeJS.ProcessEnv = process.env): ReleasePlan {
  const packageVersion = (JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { version: string }).version;
  const fromRef = env.GITHUB_REF?.startsWith('refs/tags/') ? env.GITHUB_REF : undefined;
  const wanted = requested ?? fromRef ?? packageVersion;
  const tags = git(cwd, ['tag', '--list']).split('\n').filter(Boolean);
  const tag = `v${wanted.replace(/^refs\/tags\//, '').replace(/^v/, '')}`;
  const tagCommit = tags.includes(tag) ? git(cwd, ['rev-parse', `${tag}^{commit}`]) : null;
  return planRelease({ packageVersion, requested: wanted, tags, tagCommit, head: git(cwd, ['rev-parse', 'HEAD']) });
}

/** Creates the release tag when missing, moves the major tag (annotated, as `script/release` makes them), pushes both. */
export function pushReleaseTags(cwd: string, plan: ReleasePlan, remote = 'origin'): string[] {
  const pushed: string[] = [];
  if (plan.createTag) {
    git(cwd, ['tag', '--annotate', '--message', `${plan.tag} Release`, plan.tag, 'HEAD']);
    git(cwd, ['push', '--quiet', remote, `refs/tags/${plan.tag}`]);
    pushed.push(plan.tag);
  }
  if (plan.moveMajor) {
    git(cwd, ['tag', '--force', '--annotate', '--message', `Sync ${plan.major} tag with ${plan.tag}`, plan.major, `${plan.tag}^{commit}`]);
    // The one tag that moves: forced on purpose; the release tags never are.
    git(cwd, ['push', '--quiet', '--force', remote, `refs/tags/${plan.major}`]);
    pushed.push(plan.major);
  }
  return pushed;
}

function option(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

function main(args: readonly string[]): number {
  const [command] = args;
  if (command !== 'plan' && command !== 'tag') {
    process.stderr.write('usage: release-tags.ts plan|tag [--version X.Y.Z] [--remote origin]\n');
    return 2;
  }
  try {
    const plan = readRelease(process.cwd(), option(args, '--version'));
    if (command === 'plan') process.stdout.write(renderPlan(plan));
    else {
      const pushed = pushReleaseTags(process.cwd(), plan, option(args, '--remote'));
      process.stdout.write(`pushed ${pushed.join(', ') || 'nothing'}${plan.note ? ` (${plan.note})` : ''}\n`);
    }
    return 0;
  } catch (error) {
    const code = error instanceof SkillgardenError ? ` [${error.code}]` : '';
    process.stderr.write(`${(error as Error).message}${code}\n`);
    return 1;
  }
}

if (process.argv[1] === import.meta.filename) process.exitCode = main(process.argv.slice(2));
