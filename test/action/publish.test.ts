import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../helpers/repo.js';
import type { FakeGitHub } from './fake-github.js';
import { createOrigin, type Origin, runAction, runnerEnv, type SkillSpec, useAction } from './harness.js';

const action = useAction();

const ops = (fake: FakeGitHub, operationId: string) => fake.requests.filter((r) => r.operationId === operationId);
const outcomes = (outputs: Record<string, string>) =>
  JSON.parse(outputs['pull-requests'] ?? '[]') as { branch: string; operation: string }[];

const curate = (origin: Origin, fake: FakeGitHub, inputs: Record<string, string> = {}, extra: { ref?: string } = {}) =>
  runAction(action.entry, runnerEnv({ workspace: origin.workspace, apiUrl: fake.url, inputs: { mode: 'curate', ...inputs }, ...extra }));

/** One skill to archive (a lifecycle proposal) and, with `deploy`, two near-identical skills (an umbrella proposal). */
function library(options: { deploy?: boolean } = {}): Origin {
  const skills: SkillSpec[] = [{ name: 'old-helper', age: 100, actor: 'agent' }];
  if (options.deploy)
    skills.push({ name: 'deploy-staging', age: 2, actor: 'agent' }, { name: 'deploy-production', age: 2, actor: 'agent' });
  const origin = createOrigin(skills);
  if (!options.deploy) return origin;
  for (const topic of ['staging', 'production'])
    writeFileSync(
      join(origin.workspace, `skills/deploy-${topic}/SKILL.md`),
      `---\nname: deploy-${topic}\ndescription: Deploy ${topic} notes for the web service. Use when deploying to ${topic}.\n---\n# ${topic}\n\nDeploy the web service to ${topic} servers and watch the release.\n`,
    );
  git(origin.workspace, 'add', '-A');
  git(
    origin.workspace,
    '-c',
    'user.name=Ada',
    '-c',
    'user.email=a@example.com',
    'commit',
    '-q',
    '-m',
    'skill(patch): deploy notes\n\nSkill-Action: patch\nSkill-Name: deploy-staging\nSkill-Name: deploy-production\nSkill-Actor: agent\nSkill-Source: background',
  );
  git(origin.workspace, 'push', '-q', 'origin', 'main');
  return origin;
}

/** What a branch holds, object for object: its tree, its parent, its message. */
const branchContent = (bare: string, branch: string) => ({
  tree: git(bare, 'rev-parse', `${branch}^{tree}`).trim(),
  parent: git(bare, 'rev-parse', `${branch}^`).trim(),
  message: git(bare, 'cat-file', 'commit', branch).replace(/^[\s\S]*?\n\n/, ''),
  files: git(bare, 'diff', '--name-status', '--no-renames', 'main', branch),
});

// Several runs of the bundled Action per test, on a machine others share.
describe('mode: curate, how proposals are opened', { timeout: 90_000 }, () => {
  it('opens a draft, requests reviewers and teams, and assigns people, each call as GitHub describes it', async () => {
    const origin = library();
    const fake = await action.github(origin, { collaborators: ['ada', 'bob'] });
    const inputs = { draft: 'true', reviewers: 'ada, @bob', 'team-reviewers': 'garden/maintainers', assignees: 'ada\ncarol' };
    const result = await curate(origin, fake, inputs);
    expect(result.code, result.stdout).toBe(0);
    expect(fake.violations).toEqual([]);
    expect(ops(fake, 'pulls/create')[0]?.body).toMatchObject({ head: 'skillgarden/lifecycle', base: 'main', draft: true });
    expect(ops(fake, 'pulls/request-reviewers').map((r) => r.body)).toEqual([
      { reviewers: ['ada', 'bob'], team_reviewers: ['maintainers'] },
    ]);
    expect(ops(fake, 'issues/add-assignees').map((r) => r.body)).toEqual([{ assignees: ['ada', 'carol'] }]);
    const pull = fake.pulls[0]!;
    expect(pull).toMatchObject({ draft: true, requestedReviewers: ['ada', 'bob'], requestedTeams: ['maintainers'], assignees: ['ada'] });
    expect(result.outputs).toMatchObject({
      'pull-request-number': '1',
      'pull-request-url': 'https://github.com/fake/pull/1',
      'pull-request-operation': 'created',
      'pull-request-branch': 'skillgarden/lifecycle',
      'has-proposals': 'true',
      'deferred-proposals': '[]',
    });
    // A re-run leaves the pull request as it is: nobody is requested or assigned again.
    const again = await curate(origin, fake, inputs);
    expect(again.outputs).toMatchObject({ 'pull-request-number': '1', 'pull-request-operation': 'unchanged', 'has-proposals': 'true' });
    expect(ops(fake, 'pulls/request-reviewers')).toHaveLength(1);
    expect(ops(fake, 'issues/add-assignees')).toHaveLength(1);
  });

  it('a reviewer GitHub refuses leaves the pull request open with a warning naming them', async () => {
    const origin = library();
    const fake = await action.github(origin, { collaborators: ['ada'] });
    const result = await curate(origin, fake, { reviewers: 'ada,stranger' });
    expect(result.code, result.stdout).toBe(0);
    expect(fake.pulls).toHaveLength(1);
    expect(fake.pulls[0]!.draft).toBe(false);
    expect(ops(fake, 'pulls/create')[0]?.body).not.toHaveProperty('draft');
    expect(result.stdout).toMatch(/::warning::Pull request #1 is open, but requesting reviews from ada, stranger failed: .*422/);
    expect(fake.violations).toEqual([]);
  });

  it('nothing to propose: has-proposals is false and the single-PR outputs are empty', async () => {
    const origin = createOrigin([{ name: 'fresh-helper', age: 3, actor: 'agent' }]);
    const fake = await action.github(origin);
    const result = await curate(origin, fake);
    expect(result.code, result.stdout).toBe(0);
    expect(result.outputs).toMatchObject({
      'pull-request-number': '',
      'pull-request-url': '',
      'pull-request-operation': 'none',
      'has-proposals': 'false',
    });
  });

  it('max-pull-requests caps the pull requests a run opens; the rest are reported, then opened by the next run', async () => {
    const origin = library({ deploy: true });
    const fake = await action.github(origin);
    const first = await curate(origin, fake, { consolidate: 'true', 'max-pull-requests': '1' });
    expect(first.code, first.stdout).toBe(0);
    expect(outcomes(first.outputs)).toMatchObject([{ branch: 'skillgarden/lifecycle', operation: 'created' }]);
    expect(JSON.parse(first.outputs['deferred-proposals'] ?? '')).toEqual([
      { branch: 'skillgarden/umbrella/deploy', kind: 'umbrella', title: expect.stringContaining('deploy') as unknown },
    ]);
    // Deferred means not pushed either: no branch without its pull request.
    expect(origin.branchSha('skillgarden/umbrella/deploy')).toBeNull();
    expect(first.summary).toMatch(/deferred \(max-pull-requests reached; the next run proposes it\).*`skillgarden\/umbrella\/deploy`/);
    const run = JSON.parse(readFileSync(join(dirname(first.outputs['report-path'] ?? ''), 'run.json'), 'utf8')) as { prs: object[] };
    expect(run.prs).toMatchObject([
      { branch: 'skillgarden/lifecycle', operation: 'created' },
      { branch: 'skillgarden/umbrella/deploy', operation: 'deferred', kind: 'umbrella' },
    ]);
    // The open lifecycle proposal does not count again: the next run opens the umbrella.
    const second = await curate(origin, fake, { consolidate: 'true', 'max-pull-requests': '1' });
    expect(outcomes(second.outputs)).toMatchObject([
      { branch: 'skillgarden/lifecycle', operation: 'unchanged' },
      { branch: 'skillgarden/umbrella/deploy', operation: 'created' },
    ]);
    expect(second.outputs['deferred-proposals']).toBe('[]');
    expect(fake.violations).toEqual([]);
  });

  it('max-pull-requests: 0 opens nothing, pushes nothing, and still says there are proposals', async () => {
    const origin = library();
    const fake = await action.github(origin);
    const result = await curate(origin, fake, { 'max-pull-requests': '0' });
    expect(result.code, result.stdout).toBe(0);
    expect(fake.pulls).toEqual([]);
    expect(origin.branchSha('skillgarden/lifecycle')).toBeNull();
    expect(result.outputs).toMatchObject({ 'has-proposals': 'true', 'pull-request-operation': 'none', 'pull-requests': '[]' });
  });

  it('sign-commits makes the commit through the git data API: GitHub signs it, and the branch holds what git push gives', async () => {
    // Two identical origins: one published by git push, one through the API.
    const pushed = library({ deploy: true });
    const pushFake = await action.github(pushed);
    expect((await curate(pushed, pushFake, { consolidate: 'true' })).code).toBe(0);
    const local = ['skillgarden/lifecycle', 'skillgarden/umbrella/deploy'].map((b) => branchContent(pushed.bare, b));
    const signed = library({ deploy: true });
    expect(git(signed.bare, 'rev-parse', 'main')).toBe(git(pushed.bare, 'rev-parse', 'main'));
    const fake = await action.github(signed);
    const result = await curate(signed, fake, { consolidate: 'true', 'sign-commits': 'true' });
    expect(result.code, result.stdout).toBe(0);
    expect(fake.violations).toEqual([]);
    for (const [i, branch] of ['skillgarden/lifecycle', 'skillgarden/umbrella/deploy'].entries()) {
      expect(branchContent(signed.bare, branch)).toEqual(local[i]);
      const head = signed.branchSha(branch) ?? '';
      expect(fake.signed.has(head)).toBe(true);
      expect(git(signed.bare, 'show', '-s', '--format=%an <%ae> / %cn <%ce>', head).trim()).toBe(
        'github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com> / GitHub <noreply@github.com>',
      );
      expect(result.stdout).toContain(`GitHub made and signed ${head} on ${branch} (verified).`);
    }
    // Every changed file went up as a blob (the archive moves are a delete and an add), then one tree, one commit, one new ref.
    expect(ops(fake, 'git/create-tree')).toHaveLength(2);
    expect(ops(fake, 'git/create-commit').map((r) => r.body)).toEqual([
      expect.not.objectContaining({ author: expect.anything() as unknown }),
      expect.not.objectContaining({ author: expect.anything() as unknown }),
    ]);
    expect(ops(fake, 'git/create-ref').map((r) => (r.body as { ref: string }).ref)).toEqual([
      'refs/heads/skillgarden/lifecycle',
      'refs/heads/skillgarden/umbrella/deploy',
    ]);
    const deleted = (ops(fake, 'git/create-tree')[0]?.body as { tree: { path: string; sha: string | null }[] }).tree;
    expect(deleted).toContainEqual(expect.objectContaining({ path: 'skills/old-helper/SKILL.md', sha: null }));
  });

  it("a signed proposal is the bot's own: a re-run leaves it, a moved base rebuilds it with a forced ref update", async () => {
    const signed = library({ deploy: true });
    const fake = await action.github(signed);
    const inputs = { consolidate: 'true', 'sign-commits': 'true' };
    expect((await curate(signed, fake, inputs)).code).toBe(0);
    const again = await curate(signed, fake, inputs);
    expect(outcomes(again.outputs).map((o) => o.operation)).toEqual(['unchanged', 'unchanged']);
    git(signed.workspace, '-c', 'user.name=Ada', '-c', 'user.email=a@example.com', 'commit', '-q', '--allow-empty', '-m', 'docs: touch');
    git(signed.workspace, 'push', '-q', 'origin', 'main');
    const moved = await curate(signed, fake, inputs);
    expect(moved.code, moved.stdout).toBe(0);
    expect(outcomes(moved.outputs).map((o) => o.operation)).toEqual(['updated', 'updated']);
    expect(ops(fake, 'git/update-ref').map((r) => r.body)).toEqual([
      { sha: signed.branchSha('skillgarden/lifecycle'), force: true },
      { sha: signed.branchSha('skillgarden/umbrella/deploy'), force: true },
    ]);
    expect(fake.signed.has(signed.branchSha('skillgarden/lifecycle') ?? '')).toBe(true);
    expect(git(signed.bare, 'rev-parse', 'skillgarden/lifecycle^').trim()).toBe(git(signed.bare, 'rev-parse', 'main').trim());
    expect(fake.violations).toEqual([]);
  });

  it('branch-suffix: base gives each base branch its own proposal branches and pull requests', async () => {
    const origin = library({ deploy: true });
    git(origin.bare, 'branch', 'release/1.x', 'main');
    const inputs = { 'branch-suffix': 'base', consolidate: 'true' };
    const fake = await action.github(origin);
    const onMain = await curate(origin, fake, inputs);
    expect(onMain.code, onMain.stdout).toBe(0);
    git(origin.workspace, 'fetch', '-q', 'origin');
    git(origin.workspace, 'checkout', '-q', '-b', 'release/1.x', 'origin/release/1.x');
    git(origin.workspace, '-c', 'user.name=Ada', '-c', 'user.email=a@example.com', 'commit', '-q', '--allow-empty', '-m', 'release prep');
    git(origin.workspace, 'push', '-q', 'origin', 'release/1.x');
    const onRelease = await curate(origin, fake, inputs, { ref: 'refs/heads/release/1.x' });
    expect(onRelease.code, onRelease.stdout).toBe(0);
    const mainBranch = 'skillgarden/lifecycle@main';
    const releaseBranch = outcomes(onRelease.outputs)[0]?.branch ?? '';
    const suffix = releaseBranch.slice('skillgarden/lifecycle'.length);
    expect(outcomes(onMain.outputs)).toMatchObject([
      { branch: mainBranch, operation: 'created' },
      { branch: 'skillgarden/umbrella/deploy@main', operation: 'created' },
    ]);
    expect(releaseBranch).toMatch(/^skillgarden\/lifecycle@release-1\.x-[0-9a-f]{6}$/);
    // The release run proposes its own umbrella and leaves main's open (it withdraws only its own base's).
    expect(fake.pulls.map((p) => [p.head.ref, p.base, p.state])).toEqual([
      [mainBranch, 'main', 'open'],
      ['skillgarden/umbrella/deploy@main', 'main', 'open'],
      [releaseBranch, 'release/1.x', 'open'],
      [`skillgarden/umbrella/deploy${suffix}`, 'release/1.x', 'open'],
    ]);
    expect(git(origin.bare, 'rev-parse', `${mainBranch}^`).trim()).toBe(git(origin.bare, 'rev-parse', 'main').trim());
    expect(git(origin.bare, 'rev-parse', `${releaseBranch}^`).trim()).toBe(git(origin.bare, 'rev-parse', 'release/1.x').trim());
    // Each base's run leaves the other's proposal alone.
    git(origin.workspace, 'checkout', '-q', 'main');
    const mainAgain = await curate(origin, fake, inputs);
    expect(outcomes(mainAgain.outputs)).toMatchObject([
      { branch: mainBranch, operation: 'unchanged' },
      { branch: 'skillgarden/umbrella/deploy@main', operation: 'unchanged' },
    ]);
    expect(fake.pulls.every((p) => p.state === 'open')).toBe(true);
    expect(fake.violations).toEqual([]);
  });
});
