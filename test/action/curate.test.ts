import { describe, expect, it } from 'vitest';
import { parseCommitMessage } from '../../src/core/ledger/trailers.js';
import { git } from '../helpers/repo.js';
import { writeTree } from '../helpers/tmp.js';
import type { FakeGitHub } from './fake-github.js';
import { createOrigin, type Origin, runAction, runnerEnv, useAction } from './harness.js';

const branches = (bare: string) => git(bare, 'for-each-ref', '--format=%(refname:short)', 'refs/heads').trim().split('\n');
const action = useAction();

/** One agent skill to archive (100 days idle), one to mark stale (40), one fresh, one a person's (never curated). */
const library = [
  { name: 'old-helper', age: 100, actor: 'agent' as const },
  { name: 'tired-helper', age: 40, actor: 'agent' as const },
  { name: 'fresh-helper', age: 3, actor: 'agent' as const },
  { name: 'person-notes', age: 200, actor: 'user' as const },
];

async function setup(): Promise<{ origin: Origin; fake: FakeGitHub }> {
  const origin = createOrigin(library);
  const fake = await action.github(origin);
  return { origin, fake };
}

const curate = (origin: Origin, server: FakeGitHub, inputs: Record<string, string> = {}) =>
  runAction(action.entry, runnerEnv({ workspace: origin.workspace, apiUrl: server.url, inputs: { mode: 'curate', ...inputs } }));

describe('mode: curate, as a runner runs it', () => {
  it('opens one labelled pull request with exactly one commit on the base, whose trailers the body repeats last', async () => {
    const { origin, fake } = await setup();
    const result = await curate(origin, fake);
    expect(result.stderr).toBe('');
    expect(result.code, result.stdout).toBe(0);
    expect(fake.violations).toEqual([]);
    const prs = JSON.parse(result.outputs['pull-requests'] ?? '[]');
    expect(prs).toEqual([{ branch: 'skillgarden/lifecycle', number: 1, url: 'https://github.com/fake/pull/1', operation: 'created' }]);
    expect(result.outputs.archived).toBe('1');
    expect(result.outputs['marked-stale']).toBe('1');
    const pull = fake.pulls[0]!;
    expect(pull.labels).toEqual(['skillgarden', 'lifecycle']);
    expect(pull.base).toBe('main');
    const main = git(origin.bare, 'rev-parse', 'main').trim();
    expect(git(origin.bare, 'rev-list', '--count', `main..skillgarden/lifecycle`).trim()).toBe('1');
    expect(git(origin.bare, 'rev-parse', 'skillgarden/lifecycle^').trim()).toBe(main);
    const files = git(origin.bare, 'diff', '--name-status', 'main', 'skillgarden/lifecycle');
    expect(files).toMatch(/R\d*\tskills\/old-helper\/SKILL.md\tskills\/.archive\/old-helper/);
    expect(files).toMatch(/\.skillgarden\/state.json/);
    // The body ends with the commit's trailer block, and the project's parser reads it back.
    const message = git(origin.bare, 'log', '-1', '--format=%B', 'skillgarden/lifecycle');
    const fromCommit = parseCommitMessage(message).trailers;
    const fromBody = parseCommitMessage(`${pull.title}\n\n${pull.body}`).trailers;
    expect(fromBody).toEqual(fromCommit);
    expect(fromBody).toMatchObject({ action: 'archive', skills: ['old-helper', 'tired-helper'], actor: 'curator' });
    expect(fromBody.run).toBe(result.outputs['run-id']);
    expect(message).toMatch(/Skill-Action: mark-stale\nSkill-Action: archive\n/);
    expect(result.summary).toContain('## Pull requests');
    expect(pull.body).toContain('The curator validated and scanned the proposed tree itself');
  });

  it('a squash merge of the proposal keeps the ledger: git reads the trailers from the PR body', async () => {
    const { origin, fake } = await setup();
    await curate(origin, fake);
    const pull = fake.pulls[0]!;
    const work = origin.workspace;
    git(work, 'fetch', '-q', 'origin', 'skillgarden/lifecycle');
    git(work, 'merge', '-q', '--squash', 'FETCH_HEAD');
    git(work, '-c', 'user.name=Merger', '-c', 'user.email=m@example.com', 'commit', '-q', '-m', `${pull.title} (#1)\n\n${pull.body}`);
    expect(git(work, 'log', '-1', '--format=%(trailers:key=Skill-Name,valueonly)').trim().split('\n')).toEqual([
      'old-helper',
      'tired-helper',
    ]);
    expect(git(work, 'log', '-1', '--format=%(trailers:key=Skill-Actor,valueonly)').trim()).toBe('curator');
  });

  it('a second run leaves the same pull request unchanged, and a moved base updates it: never a duplicate', async () => {
    const { origin, fake } = await setup();
    await curate(origin, fake);
    const pushed = origin.branchSha('skillgarden/lifecycle');
    const again = await curate(origin, fake);
    expect(again.code, again.stdout).toBe(0);
    expect(JSON.parse(again.outputs['pull-requests'] ?? '')).toMatchObject([{ number: 1, operation: 'unchanged' }]);
    expect(origin.branchSha('skillgarden/lifecycle')).toBe(pushed);
    expect(fake.requests.filter((r) => r.operationId === 'pulls/update')).toHaveLength(0);
    // Someone adds a skill on main: the proposal is rebuilt on the new base, same PR.
    const seed = origin.workspace;
    git(seed, 'checkout', '-q', 'main');
    git(seed, '-c', 'user.name=Ada', '-c', 'user.email=a@example.com', 'commit', '-q', '--allow-empty', '-m', 'docs: touch');
    git(seed, 'push', '-q', 'origin', 'main');
    const moved = await curate(origin, fake);
    expect(JSON.parse(moved.outputs['pull-requests'] ?? '')).toMatchObject([{ number: 1, operation: 'updated' }]);
    expect(fake.pulls).toHaveLength(1);
    expect(git(origin.bare, 'rev-parse', 'skillgarden/lifecycle^').trim()).toBe(git(origin.bare, 'rev-parse', 'main').trim());
    expect(fake.requests.filter((r) => r.operationId === 'pulls/create')).toHaveLength(1);
    expect(fake.violations).toEqual([]);
  });

  it("a person's commit on the proposal branch is never force-pushed away", async () => {
    const { origin, fake } = await setup();
    await curate(origin, fake);
    const work = origin.workspace;
    git(work, 'fetch', '-q', 'origin', 'skillgarden/lifecycle');
    git(work, 'checkout', '-q', '-b', 'tweak', 'FETCH_HEAD');
    git(
      work,
      '-c',
      'user.name=Ada',
      '-c',
      'user.email=ada@example.com',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'keep tired-helper a bit longer',
    );
    git(work, 'push', '-q', 'origin', 'tweak:skillgarden/lifecycle');
    const edited = origin.branchSha('skillgarden/lifecycle');
    git(work, 'checkout', '-q', 'main');
    git(work, '-c', 'user.name=Ada', '-c', 'user.email=a@example.com', 'commit', '-q', '--allow-empty', '-m', 'main moves on');
    git(work, 'push', '-q', 'origin', 'main');
    const result = await curate(origin, fake);
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain('has commits by someone else');
    expect(JSON.parse(result.outputs['pull-requests'] ?? '')).toMatchObject([{ number: 1, operation: 'unchanged' }]);
    expect(origin.branchSha('skillgarden/lifecycle')).toBe(edited);
  });

  it('a proposal closed without merging is not made again', async () => {
    const { origin, fake } = await setup();
    await curate(origin, fake);
    fake.pulls[0]!.state = 'closed';
    const again = await curate(origin, fake);
    expect(again.code, again.stdout).toBe(0);
    expect(JSON.parse(again.outputs['pull-requests'] ?? '')).toEqual([]);
    expect(again.stdout).toContain('closed without merging in #1');
    expect(fake.pulls).toHaveLength(1);
    expect(fake.requests.filter((r) => r.operationId === 'pulls/create')).toHaveLength(1);
  });

  it('nothing to propose: no branch, no pull request, and an open stale proposal is closed with a comment', async () => {
    const { origin, fake } = await setup();
    await curate(origin, fake);
    expect(origin.branchSha('skillgarden/lifecycle')).not.toBeNull();
    // A person pins both skills on main: the curator has nothing left to propose.
    const work = origin.workspace;
    for (const name of ['old-helper', 'tired-helper']) {
      const path = `${work}/skills/${name}/SKILL.md`;
      const { readFileSync, writeFileSync } = await import('node:fs');
      writeFileSync(path, readFileSync(path, 'utf8').replace('---\n#', 'pinned: true\n---\n#'));
    }
    git(work, '-c', 'user.name=Ada', '-c', 'user.email=a@example.com', 'commit', '-q', '-am', 'pin the helpers');
    git(work, 'push', '-q', 'origin', 'main');
    const result = await curate(origin, fake);
    expect(result.code, result.stdout).toBe(0);
    expect(JSON.parse(result.outputs['pull-requests'] ?? '')).toMatchObject([{ number: 1, operation: 'closed' }]);
    expect(fake.pulls[0]!.state).toBe('closed');
    expect(fake.pulls[0]!.comments[0]).toContain('no lifecycle transitions');
    expect(origin.branchSha('skillgarden/lifecycle')).toBeNull();
    const quiet = await curate(origin, fake);
    expect(JSON.parse(quiet.outputs['pull-requests'] ?? '')).toEqual([]);
    expect(fake.pulls).toHaveLength(1);
    expect(fake.violations).toEqual([]);
  });

  it('a proposal the bot withdrew is not a decline: proposed again, the pull request opens again', async () => {
    const { origin, fake } = await setup();
    await curate(origin, fake);
    const work = origin.workspace;
    const { readFileSync, writeFileSync } = await import('node:fs');
    const edit = (from: string, to: string, message: string) => {
      for (const name of ['old-helper', 'tired-helper']) {
        const path = `${work}/skills/${name}/SKILL.md`;
        writeFileSync(path, readFileSync(path, 'utf8').replace(from, to));
      }
      git(work, '-c', 'user.name=Ada', '-c', 'user.email=a@example.com', 'commit', '-q', '-am', message);
      git(work, 'push', '-q', 'origin', 'main');
    };
    edit('---\n#', 'pinned: true\n---\n#', 'pin the helpers');
    const withdrawn = await curate(origin, fake);
    expect(JSON.parse(withdrawn.outputs['pull-requests'] ?? '')).toMatchObject([{ number: 1, operation: 'closed' }]);
    edit('pinned: true\n', '', 'unpin the helpers');
    const again = await curate(origin, fake);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).not.toContain('closed without merging');
    expect(JSON.parse(again.outputs['pull-requests'] ?? '')).toMatchObject([{ number: 2, operation: 'created' }]);
    expect(fake.pulls[1]!.state).toBe('open');
    expect(fake.violations).toEqual([]);
  });

  it('with no transitions at all, opens nothing and pushes nothing', async () => {
    const origin = createOrigin([{ name: 'fresh-helper', age: 2, actor: 'agent' }]);
    const fake = await action.github(origin);
    const result = await curate(origin, fake);
    expect(result.code, result.stdout).toBe(0);
    expect(JSON.parse(result.outputs['pull-requests'] ?? '')).toEqual([]);
    expect(branches(origin.bare)).toEqual(['main']);
    expect(fake.requests.map((r) => r.operationId)).toEqual(['pulls/list']);
  });

  it('dry-run writes the report and touches neither git nor GitHub', async () => {
    const { origin, fake } = await setup();
    const result = await curate(origin, fake, { 'dry-run': 'true' });
    expect(result.code, result.stdout).toBe(0);
    expect(result.outputs.status).toBe('dry-run');
    expect(result.outputs.transitions).toBe('2');
    expect(result.summary).toContain('dry run');
    expect(fake.requests).toEqual([]);
    expect(branches(origin.bare)).toEqual(['main']);
    const { existsSync } = await import('node:fs');
    expect(existsSync(result.outputs['report-path'] ?? '')).toBe(true);
  });

  it('push-transitions commits each transition straight to the base, tagged with the run', async () => {
    const { origin, fake } = await setup();
    const before = git(origin.bare, 'rev-parse', 'main').trim();
    const result = await curate(origin, fake, { 'push-transitions': 'true' });
    expect(result.code, result.stdout).toBe(0);
    expect(fake.requests).toEqual([]);
    const subjects = git(origin.bare, 'log', '--format=%s', `${before}..main`).trim().split('\n');
    expect(subjects).toHaveLength(3);
    expect(subjects[0]).toMatch(/^skill\(curate\)/);
    expect(git(origin.bare, 'tag', '--list').trim()).toBe(`skillgarden/run/${result.outputs['run-id']}`);
  });

  it('on its schedule, proposals ignore the interval (the cron is the schedule) but obey paused', async () => {
    const { origin, fake } = await setup();
    const schedule = { name: 'schedule', payload: {} };
    const work = origin.workspace;
    // The last run was 167.9 hours ago: a weekly cron a little early must not lose the week.
    const lastRun = new Date(Date.parse('2026-11-29T12:00:00Z') - 167.9 * 3_600_000).toISOString();
    writeTree(work, { '.skillgarden/state.json': `${JSON.stringify({ version: 1, last_run_at: lastRun, skills: {} }, null, 2)}\n` });
    git(work, 'add', '-A');
    git(work, '-c', 'user.name=Ada', '-c', 'user.email=a@example.com', 'commit', '-q', '-m', 'state');
    const early = await runAction(
      action.entry,
      runnerEnv({ workspace: work, apiUrl: fake.url, inputs: { mode: 'curate' }, event: schedule }),
    );
    expect(early.outputs).toMatchObject({ status: 'completed', transitions: '2' });
    writeTree(work, { '.skillgarden/config.yaml': 'paused: true\n' });
    git(work, 'add', '-A');
    git(work, '-c', 'user.name=Ada', '-c', 'user.email=a@example.com', 'commit', '-q', '-m', 'pause the curator');
    const paused = await runAction(
      action.entry,
      runnerEnv({ workspace: work, apiUrl: fake.url, inputs: { mode: 'curate' }, event: schedule }),
    );
    expect(paused.code, paused.stdout).toBe(0);
    expect(paused.outputs).toMatchObject({ status: 'skipped', 'pull-requests': '[]' });
    expect(fake.pulls).toHaveLength(1);
  });

  it('a scheduled run with push-transitions defers the first run; with pull requests it does not', async () => {
    const scheduled = async (inputs: Record<string, string>) => {
      const { origin, fake: server } = await setup();
      const result = await runAction(
        action.entry,
        runnerEnv({
          workspace: origin.workspace,
          apiUrl: server.url,
          inputs: { mode: 'curate', ...inputs },
          event: { name: 'schedule', payload: {} },
        }),
      );
      return result;
    };
    const pushed = await scheduled({ 'push-transitions': 'true' });
    expect(pushed.outputs).toMatchObject({ status: 'first-run', transitions: '0' });
    const proposed = await scheduled({});
    expect(proposed.outputs).toMatchObject({ status: 'completed', transitions: '2' });
  });
});
