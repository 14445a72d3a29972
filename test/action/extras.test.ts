import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommitMessage } from '../../src/core/ledger/trailers.js';
import { git } from '../helpers/repo.js';
import type { FakeGitHub } from './fake-github.js';
import { createOrigin, type Origin, runAction, runnerEnv, useAction } from './harness.js';

const action = useAction();

const deployText = (topic: string) => `# ${topic}\n\nDeploy the web service to ${topic} servers and watch the release.\n`;

async function deployLibrary(): Promise<{ origin: Origin; fake: FakeGitHub }> {
  const origin = createOrigin([
    { name: 'deploy-staging', age: 2, actor: 'agent', extra: '' },
    { name: 'deploy-production', age: 2, actor: 'agent', extra: '' },
  ]);
  // Same words in both: the consolidation planner sees one class of skill.
  for (const topic of ['staging', 'production']) {
    writeFileSync(
      join(origin.workspace, `skills/deploy-${topic}/SKILL.md`),
      `---\nname: deploy-${topic}\ndescription: Deploy ${topic} notes for the web service. Use when deploying to ${topic}.\n---\n${deployText(topic)}`,
    );
  }
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
  const fake = await action.github(origin);
  return { origin, fake };
}

describe('mode: curate, umbrellas and drafted skills', () => {
  it('proposes an umbrella as one commit on its own branch and pull request; a re-run leaves it unchanged', async () => {
    const { origin, fake } = await deployLibrary();
    const env = runnerEnv({ workspace: origin.workspace, apiUrl: fake.url, inputs: { mode: 'curate', consolidate: 'true' } });
    const result = await runAction(action.entry, env);
    expect(result.code, result.stdout).toBe(0);
    expect(fake.violations).toEqual([]);
    expect(JSON.parse(result.outputs['pull-requests'] ?? '')).toEqual([
      { branch: 'skillgarden/umbrella/deploy', number: 1, url: 'https://github.com/fake/pull/1', operation: 'created' },
    ]);
    const pull = fake.pulls[0]!;
    expect(pull.labels).toEqual(['skillgarden', 'umbrella']);
    expect(git(origin.bare, 'rev-parse', 'skillgarden/umbrella/deploy^').trim()).toBe(git(origin.bare, 'rev-parse', 'main').trim());
    const trailers = parseCommitMessage(`${pull.title}\n\n${pull.body}`).trailers;
    expect(trailers).toEqual(parseCommitMessage(git(origin.bare, 'log', '-1', '--format=%B', 'skillgarden/umbrella/deploy')).trailers);
    expect(trailers).toMatchObject({ action: 'merge', actor: 'curator', skills: ['deploy', 'deploy-production', 'deploy-staging'] });
    expect(pull.body).toContain('consolidations:');
    const again = await runAction(action.entry, env);
    expect(JSON.parse(again.outputs['pull-requests'] ?? '')).toMatchObject([{ number: 1, operation: 'unchanged' }]);
  });

  it('proposes a drafted skill from repeated tool patterns on skillgarden/new/<name>', async () => {
    const origin = createOrigin([{ name: 'person-notes', age: 5, actor: 'user' }]);
    const fake = await action.github(origin);
    const line = (session: string, tool: string, args: object = {}) => JSON.stringify({ session, tool, args });
    const sessions = ['s1', 's2', 's3', 's4'].flatMap((s) => [
      JSON.stringify({ session: s, user: `Please rename the ${s} option and update the tests` }),
      line(s, 'Grep', { pattern: 'x' }),
      line(s, 'Read', { file_path: 'a' }),
      line(s, 'Edit', { file_path: 'a' }),
      line(s, 'Bash', { command: 'npm test' }),
    ]);
    writeFileSync(join(origin.workspace, 'session.jsonl'), `${sessions.join('\n')}\n`);
    const result = await runAction(
      action.entry,
      runnerEnv({ workspace: origin.workspace, apiUrl: fake.url, inputs: { mode: 'curate', transcripts: '*.jsonl' } }),
    );
    expect(result.code, result.stdout).toBe(0);
    expect(JSON.parse(result.outputs['pull-requests'] ?? '')).toMatchObject([
      { branch: 'skillgarden/new/rename-option-update', operation: 'created' },
    ]);
    expect(fake.pulls[0]!.labels).toEqual(['skillgarden', 'new-skill']);
    // The pull request carries the draft's evidence: what people asked, which sessions.
    expect(fake.pulls[0]!.body).toContain('Please rename the s1 option and update the tests');
    expect(fake.pulls[0]!.body).toMatch(/sessions `s1`, `s2`, `s3`, `s4`/);
    expect(git(origin.bare, 'diff', '--name-only', 'main', 'skillgarden/new/rename-option-update').trim()).toBe(
      'skills/rename-option-update/SKILL.md',
    );
    expect(parseCommitMessage(`t\n\n${fake.pulls[0]!.body}`).trailers).toMatchObject({
      action: 'create',
      skills: ['rename-option-update'],
      actor: 'curator',
    });
    expect(fake.violations).toEqual([]);
  });
});
