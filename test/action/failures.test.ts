import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../helpers/repo.js';
import type { Failure, FakeGitHub } from './fake-github.js';
import { createOrigin, type Origin, owner, repoName, runAction, runnerEnv, useAction } from './harness.js';

const action = useAction();

const library = [
  { name: 'old-helper', age: 100, actor: 'agent' as const },
  { name: 'person-notes', age: 200, actor: 'user' as const },
];

async function setup(failures: Failure[] = [], options: { shallow?: boolean } = {}): Promise<{ origin: Origin; fake: FakeGitHub }> {
  const origin = createOrigin(library, options);
  const fake = await action.github(origin);
  fake.failures.push(...failures);
  return { origin, fake };
}

const curate = (origin: Origin, server: FakeGitHub, inputs: Record<string, string> = {}, event?: { name: string; payload: object }) =>
  runAction(
    action.entry,
    runnerEnv({
      workspace: origin.workspace,
      apiUrl: server.url,
      inputs: { mode: 'curate', 'api-retries': '2', ...inputs },
      ...(event ? { event } : {}),
    }),
  );

const count = (server: FakeGitHub, operationId: string) => server.requests.filter((r) => r.operationId === operationId).length;
const errorLine = (stdout: string) => stdout.split('\n').find((l) => l.startsWith('::error::')) ?? '';

describe('mode: curate when GitHub or the setup fails', () => {
  it('retries 5xx answers with backoff, then fails naming the call, with nothing pushed', async () => {
    const { origin, fake } = await setup([{ operationId: 'pulls/list', status: 503, times: 99 }]);
    const result = await curate(origin, fake);
    expect(result.code).toBe(1);
    expect(errorLine(result.stdout)).toMatch(
      /GET \/repos\/\{owner\}\/\{repo\}\/pulls kept failing with 503 after 3 tries.*\[action\/github-unavailable\]/,
    );
    expect(count(fake, 'pulls/list')).toBe(3);
    expect(origin.branchSha('skillgarden/lifecycle')).toBeNull();
    expect(fake.violations).toEqual([]);
  });

  it('waits out rate limits (429 with retry-after, 403 with no requests left) and goes on', async () => {
    const reset = String(Math.floor(Date.now() / 1000));
    const { origin, fake } = await setup([
      { operationId: 'pulls/list', status: 403, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }, times: 1 },
      { operationId: 'pulls/create', status: 429, headers: { 'retry-after': '1' }, times: 1 },
    ]);
    const result = await curate(origin, fake);
    expect(result.code, result.stdout).toBe(0);
    expect(JSON.parse(result.outputs['pull-requests'] ?? '')).toMatchObject([{ number: 1, operation: 'created' }]);
    expect(count(fake, 'pulls/list')).toBe(2);
    expect(count(fake, 'pulls/create')).toBe(2);
    expect(fake.pulls).toHaveLength(1);
  });

  it('when the PR call fails after the push, the next run finds the branch and reuses it', async () => {
    const { origin, fake } = await setup([{ operationId: 'pulls/create', status: 502, times: 3 }]);
    const failed = await curate(origin, fake);
    expect(failed.code).toBe(1);
    expect(errorLine(failed.stdout)).toMatch(/POST \/repos\/\{owner\}\/\{repo\}\/pulls kept failing with 502/);
    const pushed = origin.branchSha('skillgarden/lifecycle');
    expect(pushed).not.toBeNull();
    expect(git(origin.bare, 'rev-parse', `${pushed}^`).trim()).toBe(git(origin.bare, 'rev-parse', 'main').trim());
    const again = await curate(origin, fake);
    expect(again.code, again.stdout).toBe(0);
    expect(JSON.parse(again.outputs['pull-requests'] ?? '')).toMatchObject([{ number: 1, operation: 'created' }]);
    expect(fake.pulls).toHaveLength(1);
  });

  it('a 403 that is not a rate limit names the permissions and the repository setting', async () => {
    const { origin, fake } = await setup([{ operationId: 'pulls/create', status: 403, times: 1 }]);
    const result = await curate(origin, fake);
    expect(result.code).toBe(1);
    const line = errorLine(result.stdout);
    expect(line).toContain('pull-requests: write');
    expect(line).toContain('Allow GitHub Actions to create and approve pull requests');
    expect(line).toContain('[action/github-forbidden]');
    expect(count(fake, 'pulls/create')).toBe(1);
  });

  it('without a token, says which token and permissions to give, and calls nothing', async () => {
    const { origin, fake } = await setup();
    const result = await curate(origin, fake, { token: '' });
    expect(result.code).toBe(1);
    expect(errorLine(result.stdout)).toMatch(/contents: write.*pull-requests: write.*\[action\/no-token\]/);
    expect(fake.requests).toEqual([]);
  });

  it('refuses to curate on a pull request from a fork, pushing nothing', async () => {
    const { origin, fake } = await setup();
    const payload = {
      pull_request: {
        base: { sha: 'a'.repeat(40), ref: 'main', repo: { full_name: `${owner}/${repoName}` } },
        head: { repo: { full_name: 'stranger/skills' } },
      },
    };
    const result = await curate(origin, fake, {}, { name: 'pull_request', payload });
    expect(result.code).toBe(1);
    expect(errorLine(result.stdout)).toContain('[action/fork]');
    expect(fake.requests).toEqual([]);
    expect(origin.branchSha('skillgarden/lifecycle')).toBeNull();
  });

  it('a shallow checkout is deepened before the curator reads ages and provenance from history', async () => {
    const { origin, fake } = await setup([], { shallow: true });
    expect(git(origin.workspace, 'rev-parse', '--is-shallow-repository').trim()).toBe('true');
    const result = await curate(origin, fake);
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain('The checkout was shallow');
    expect(result.outputs.archived).toBe('1');
  });

  it('a push the remote refuses names the permission, and opens no pull request', async () => {
    const { origin, fake } = await setup();
    writeFileSync(
      join(origin.bare, 'hooks', 'pre-receive'),
      '#!/bin/sh\necho "Permission to garden/skills.git denied to github-actions[bot]." >&2\nexit 1\n',
      { mode: 0o755 },
    );
    const result = await curate(origin, fake);
    expect(result.code).toBe(1);
    expect(errorLine(result.stdout)).toMatch(/contents: write.*\[action\/push-forbidden\]/);
    expect(fake.pulls).toEqual([]);
    expect(origin.branchSha('skillgarden/lifecycle')).toBeNull();
  });

  it('a bad input fails the step naming the input', async () => {
    const { origin, fake } = await setup();
    const result = await curate(origin, fake, { 'dry-run': 'maybe' });
    expect(result.code).toBe(1);
    expect(errorLine(result.stdout)).toMatch(/Input `dry-run` is "maybe".*\[action\/bad-input\]/);
  });
});
