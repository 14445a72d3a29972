import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { planRelease, pushReleaseTags, readRelease, renderPlan, type ReleaseInput } from '../../scripts/release-tags.js';
import { isSkillgardenError } from '../../src/core/errors.js';
import { git } from '../helpers/repo.js';
import { tempDir } from '../helpers/tmp.js';

const root = join(import.meta.dirname, '..', '..');
const head = 'a'.repeat(40);
const base: ReleaseInput = { packageVersion: '1.2.3', requested: '1.2.3', tags: [], tagCommit: null, head };

const codeOf = (input: Partial<ReleaseInput>) => {
  try {
    planRelease({ ...base, ...input });
    return null;
  } catch (error) {
    return isSkillgardenError(error) ? error.code : String(error);
  }
};

describe('planRelease', () => {
  it('the first release of a major creates vX.Y.Z and vX', () => {
    expect(planRelease(base)).toEqual({
      version: '1.2.3',
      tag: 'v1.2.3',
      major: 'v1',
      prerelease: false,
      createTag: true,
      moveMajor: true,
      note: '',
    });
  });

  it.each(['v1.2.3', 'refs/tags/v1.2.3'])('reads %s as 1.2.3', (requested) => {
    expect(planRelease({ ...base, requested }).tag).toBe('v1.2.3');
  });

  it('a pushed tag on the released commit is checked, not created; vX moves to it', () => {
    const plan = planRelease({ ...base, tags: ['v1.0.0', 'v1', 'v1.2.3'], tagCommit: head });
    expect(plan).toMatchObject({ createTag: false, moveMajor: true });
  });

  it.each<[Partial<ReleaseInput>, string]>([
    [{ requested: '1.2' }, 'release/bad-version'],
    [{ requested: 'v1.2.3+build' }, 'release/bad-version'],
    [{ requested: '01.2.3' }, 'release/bad-version'],
    [{ requested: '1.2.4' }, 'release/version-mismatch'],
    [{ tags: ['v1.2.3'], tagCommit: 'b'.repeat(40) }, 'release/tag-elsewhere'],
  ])('%j is refused with %s', (input, code) => {
    expect(codeOf(input)).toBe(code);
  });

  it('a prerelease and a backport below the newest release leave vX where it is', () => {
    expect(planRelease({ ...base, packageVersion: '1.3.0-rc.1', requested: '1.3.0-rc.1' })).toMatchObject({
      tag: 'v1.3.0-rc.1',
      prerelease: true,
      moveMajor: false,
    });
    const backport = planRelease({ ...base, tags: ['v1.3.0', 'v2.0.0', 'v1.4.0-rc.1'] });
    expect(backport).toMatchObject({ moveMajor: false, createTag: true });
    // Only a newer stable release of the same major holds vX back.
    expect(backport.note).toBe('v1.3.0 is newer than v1.2.3: v1 stays on the newest release.');
    expect(planRelease({ ...base, tags: ['v2.0.0', 'v1.4.0-rc.1', 'v1.2.2'] }).moveMajor).toBe(true);
  });

  it('renders $GITHUB_OUTPUT lines', () => {
    expect(renderPlan(planRelease(base))).toBe(
      'version=1.2.3\ntag=v1.2.3\nmajor=v1\nprerelease=false\ncreate-tag=true\nmove-major=true\nnote=\n',
    );
  });
});

/** A repository with package.json at `version`, cloned from a bare origin the tags are pushed to. */
function releaseRepo(version: string): { work: string; origin: string } {
  const origin = `${tempDir('skillgarden-release-origin-')}/origin.git`;
  git(tempDir(), 'init', '-q', '--bare', origin);
  const work = tempDir('skillgarden-release-');
  git(work, 'init', '-q', '-b', 'main');
  git(work, 'config', 'user.name', 'Release Bot');
  git(work, 'config', 'user.email', 'bot@example.com');
  git(work, 'remote', 'add', 'origin', origin);
  bump(work, version);
  return { work, origin };
}

function bump(work: string, version: string, branch = 'main'): void {
  writeFileSync(join(work, 'package.json'), `${JSON.stringify({ name: 'x', version }, null, 2)}\n`);
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', `release ${version}`);
  git(work, 'push', '-q', 'origin', `HEAD:${branch}`);
}

const tagsOf = (origin: string) =>
  Object.fromEntries(
    git(origin, 'for-each-ref', '--format=%(refname:short) %(*objectname)', 'refs/tags')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ') as [string, string]),
  );

describe('pushReleaseTags, against a local origin', () => {
  it('tags a release, moves vX with each newer one, and never moves it back for a backport', () => {
    const { work, origin } = releaseRepo('1.0.0');
    const first = git(work, 'rev-parse', 'HEAD').trim();
    expect(pushReleaseTags(work, readRelease(work, '1.0.0', {}))).toEqual(['v1.0.0', 'v1']);
    expect(tagsOf(origin)).toEqual({ v1: first, 'v1.0.0': first });
    expect(git(origin, 'cat-file', '-t', 'v1').trim()).toBe('tag'); // annotated, as script/release makes it
    bump(work, '1.1.0');
    const second = git(work, 'rev-parse', 'HEAD').trim();
    expect(pushReleaseTags(work, readRelease(work, undefined, {}))).toEqual(['v1.1.0', 'v1']);
    expect(tagsOf(origin)).toEqual({ v1: second, 'v1.0.0': first, 'v1.1.0': second });
    // A patch of 1.0 released after 1.1: its own tag, and v1 stays on 1.1.0.
    git(work, 'checkout', '-q', '-b', 'releases/1.0', 'v1.0.0');
    bump(work, '1.0.1', 'releases/1.0');
    const backport = git(work, 'rev-parse', 'HEAD').trim();
    expect(pushReleaseTags(work, readRelease(work, '1.0.1', {}))).toEqual(['v1.0.1']);
    expect(tagsOf(origin)).toMatchObject({ v1: second, 'v1.0.1': backport });
  });

  it('a pushed tag (the tag-push trigger) is read from GITHUB_REF and only vX is pushed', () => {
    const { work, origin } = releaseRepo('2.0.0');
    git(work, 'tag', '-a', '-m', 'v2.0.0', 'v2.0.0');
    git(work, 'push', '-q', 'origin', 'v2.0.0');
    const plan = readRelease(work, undefined, { GITHUB_REF: 'refs/tags/v2.0.0' });
    expect(plan).toMatchObject({ tag: 'v2.0.0', createTag: false, moveMajor: true });
    expect(pushReleaseTags(work, plan)).toEqual(['v2']);
    expect(tagsOf(origin).v2).toBe(git(work, 'rev-parse', 'HEAD').trim());
  });

  it('the command line prints the plan, and refuses a version package.json does not have', () => {
    const { work } = releaseRepo('0.3.0');
    const tsx = join(root, 'node_modules', '.bin', 'tsx');
    const script = join(root, 'scripts', 'release-tags.ts');
    const env = { ...process.env, GITHUB_REF: 'refs/heads/main' };
    expect(execFileSync(tsx, [script, 'plan'], { cwd: work, env, encoding: 'utf8' })).toContain('tag=v0.3.0\nmajor=v0\n');
    let stderr = '';
    try {
      execFileSync(tsx, [script, 'plan', '--version', '0.4.0'], { cwd: work, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      stderr = String((error as { stderr: string }).stderr);
    }
    expect(stderr).toContain('[release/version-mismatch]');
  });
});

describe('.github/workflows/release.yml', () => {
  interface Step {
    name?: string;
    run?: string;
    uses?: string;
    with?: Record<string, unknown>;
  }
  const workflow = parse(readFileSync(join(root, '.github', 'workflows', 'release.yml'), 'utf8')) as {
    on: { push: { tags: string[] }; workflow_dispatch: { inputs: Record<string, { required: boolean }> } };
    permissions: Record<string, string>;
    jobs: { release: { steps: Step[] } };
  };
  const steps = workflow.jobs.release.steps;
  const index = (pattern: RegExp) => steps.findIndex((s) => pattern.test(`${s.run ?? ''}`));

  it('runs on a pushed vX.Y.Z tag (never on the major tag it moves) or by hand with a version', () => {
    const globs = workflow.on.push.tags.map((t) => new RegExp(`^${t.replace(/\./g, '\\.').replace(/\*/g, '.*')}$`));
    const matches = (tag: string) => globs.some((g) => g.test(tag));
    expect(['v1.2.3', 'v10.0.0', 'v1.3.0-rc.1'].every(matches)).toBe(true);
    expect(['v1', 'v1.2', 'release-1'].some(matches)).toBe(false);
    expect(workflow.on.workflow_dispatch.inputs.version?.required).toBe(true);
    expect(workflow.permissions).toEqual({ contents: 'write' });
  });

  it('checks dist/ and runs the tests before it tags, then publishes the release', () => {
    const plan = index(/release-tags\.ts plan/);
    const dist = index(/npm run build:action[\s\S]*git diff --exit-code --stat dist\//);
    const tests = index(/\.ci\/run/);
    const tag = index(/release-tags\.ts tag/);
    const release = index(/gh release create "\$TAG" --verify-tag/);
    expect([plan, dist, tests, tag, release].every((i) => i >= 0)).toBe(true);
    expect(plan < dist && dist < tests && tests < tag && tag < release).toBe(true);
    expect(steps.find((s) => s.uses?.startsWith('actions/checkout'))?.with).toMatchObject({ 'fetch-depth': 0 });
  });
});
