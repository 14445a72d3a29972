import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import runReportSchema from '../../schemas/run-report.schema.json' with { type: 'json' };
import { parseCommitMessage } from '../../src/core/ledger/trailers.js';
import { git } from '../helpers/repo.js';
import { writeTree } from '../helpers/tmp.js';
import { recordPath } from '../../src/core/config/state-files.js';
import type { FakeGitHub } from './fake-github.js';
import { commitAt, createOrigin, type Origin, readBranch, runAction, runnerEnv, useAction } from './harness.js';

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

/** Four sessions in skillgarden's compact JSONL in which a person asks for the same task and the agent does it the same way. */
function writeSessions(workspace: string, file = 'session.jsonl'): void {
  const line = (session: string, tool: string, args: object = {}) => JSON.stringify({ session, tool, args });
  const sessions = ['s1', 's2', 's3', 's4'].flatMap((s) => [
    JSON.stringify({ session: s, user: `Please rename the ${s} option and update the tests` }),
    line(s, 'Grep', { pattern: 'x' }),
    line(s, 'Read', { file_path: 'a' }),
    line(s, 'Edit', { file_path: 'a' }),
    // The project's docs script names the procedure: a bare test → edit → test loop is a habit, never drafted.
    line(s, 'Bash', { command: 'npm run docs:gen && npm test' }),
  ]);
  writeFileSync(join(workspace, file), `${sessions.join('\n')}\n`);
}

interface RunJson {
  plans: { kind: string; into: string; from: string[] }[];
  patterns: { tools: string[]; draft?: { name: string } }[];
  prs: { branch: string; number: number; operation: string }[];
  proposals?: { kind: string; branch: string; title: string; files: { status: string; path: string }[]; diff: string | null }[];
}

const validateReport = new Ajv2020({ strict: false, validateFormats: false }).compile(runReportSchema);

/** run.json beside REPORT.md, checked against its published schema. */
function readRunJson(reportPath: string | undefined): RunJson {
  const run: unknown = JSON.parse(readFileSync(join(dirname(reportPath ?? ''), 'run.json'), 'utf8'));
  expect(validateReport(run), JSON.stringify(validateReport.errors)).toBe(true);
  return run as RunJson;
}

const umbrellaBranch = 'skillgarden/umbrella/deploy';
const draftBranch = 'skillgarden/new/rename-option-update';

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
    writeSessions(origin.workspace);
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
    // The draft carries its evals (issue #31).
    expect(git(origin.bare, 'diff', '--name-only', 'main', 'skillgarden/new/rename-option-update').trim().split('\n')).toEqual([
      'skills/rename-option-update/SKILL.md',
      'skills/rename-option-update/evals/evals.json',
      'skills/rename-option-update/evals/trigger-queries.json',
    ]);
    expect(parseCommitMessage(`t\n\n${fake.pulls[0]!.body}`).trailers).toMatchObject({
      action: 'create',
      skills: ['rename-option-update'],
      actor: 'curator',
    });
    expect(fake.violations).toEqual([]);
  });

  it('dry-run lists the umbrellas and the drafts it would propose, with their files and diffs, and pushes nothing', async () => {
    const { origin, fake } = await deployLibrary();
    writeSessions(origin.workspace);
    const inputs = { mode: 'curate', 'dry-run': 'true', consolidate: 'true', transcripts: '*.jsonl' };
    const result = await runAction(action.entry, runnerEnv({ workspace: origin.workspace, apiUrl: fake.url, inputs }));
    expect(result.code, result.stdout).toBe(0);
    expect(fake.requests).toEqual([]);
    expect(git(origin.bare, 'for-each-ref', '--format=%(refname:short)', 'refs/heads').trim()).toBe('main');
    const run = readRunJson(result.outputs['report-path']);
    expect(run.plans).toMatchObject([{ into: 'deploy', from: ['deploy-production', 'deploy-staging'] }]);
    expect(run.patterns.some((p) => p.draft?.name === 'rename-option-update')).toBe(true);
    const byBranch = new Map((run.proposals ?? []).map((p) => [p.branch, p]));
    expect([...byBranch.keys()].sort()).toEqual([draftBranch, umbrellaBranch]);
    const umbrella = byBranch.get(umbrellaBranch)!;
    expect(umbrella.files).toContainEqual({ status: 'A', path: 'skills/deploy/SKILL.md' });
    expect(umbrella.files.filter((f) => f.status.startsWith('R')).map((f) => f.path)).toEqual(
      expect.arrayContaining(['skills/.archive/deploy-staging/SKILL.md']),
    );
    expect(umbrella.diff).toContain('+name: deploy\n');
    const draft = byBranch.get(draftBranch)!;
    expect(draft.files).toEqual(
      ['SKILL.md', 'evals/evals.json', 'evals/trigger-queries.json'].map((f) => ({
        status: 'A',
        path: `skills/rename-option-update/${f}`,
      })),
    );
    expect(draft.diff).toContain('+name: rename-option-update');
    // The job summary says the same: each proposal, its branch and its diff.
    expect(result.summary).toContain('## Proposals (dry run: none pushed, none opened)');
    expect(result.summary).toContain(`Branch \`${umbrellaBranch}\``);
    expect(result.summary).toContain(`Branch \`${draftBranch}\``);
    expect(result.summary).toContain('+name: rename-option-update');
    expect(result.summary).toContain('## Consolidation plans');
    expect(result.summary).toContain('## Patterns');
  });

  it('max-drafts: 0 overrides the config: no draft is proposed', async () => {
    const { origin, fake } = await deployLibrary();
    writeSessions(origin.workspace);
    const inputs = { mode: 'curate', 'dry-run': 'true', transcripts: '*.jsonl', 'max-drafts': '0' };
    const result = await runAction(action.entry, runnerEnv({ workspace: origin.workspace, apiUrl: fake.url, inputs }));
    expect(result.code, result.stdout).toBe(0);
    const run = readRunJson(result.outputs['report-path']);
    expect(run.patterns.length).toBeGreaterThan(0);
    expect(run.patterns.filter((p) => p.draft)).toEqual([]);
    expect((run.proposals ?? []).filter((p) => p.kind === 'new')).toEqual([]);
  });

  it("a real run's run.json and REPORT.md carry the plans, the patterns and the pull requests", async () => {
    const { origin, fake } = await deployLibrary();
    writeSessions(origin.workspace);
    const inputs = { mode: 'curate', consolidate: 'true', transcripts: '*.jsonl' };
    const result = await runAction(action.entry, runnerEnv({ workspace: origin.workspace, apiUrl: fake.url, inputs }));
    expect(result.code, result.stdout).toBe(0);
    expect(fake.violations).toEqual([]);
    const run = readRunJson(result.outputs['report-path']);
    expect(run.plans).toHaveLength(1);
    expect(run.patterns.some((p) => p.draft?.name === 'rename-option-update')).toBe(true);
    expect(run.prs.map((p) => [p.branch, p.operation]).sort()).toEqual([
      [draftBranch, 'created'],
      [umbrellaBranch, 'created'],
    ]);
    const markdown = readFileSync(result.outputs['report-path'] ?? '', 'utf8');
    expect(markdown).toContain('## Consolidation plans');
    expect(markdown).toContain('## Patterns');
    for (const pr of run.prs) expect(markdown).toContain(`[#${pr.number}]`);
    // Each body speaks for its own proposal only: compared with the base, it introduces nothing.
    for (const pull of fake.pulls) expect(pull.body).toContain('compared with `main`, this proposal introduces 0 error(s)');
  });

  it('propose → the bot withdraws it → propose again opens the pull request again', async () => {
    const origin = createOrigin([{ name: 'person-notes', age: 5, actor: 'user' }]);
    const fake = await action.github(origin);
    writeSessions(origin.workspace);
    const run = (transcripts: string) =>
      runAction(action.entry, runnerEnv({ workspace: origin.workspace, apiUrl: fake.url, inputs: { mode: 'curate', transcripts } }));
    const first = await run('*.jsonl');
    expect(JSON.parse(first.outputs['pull-requests'] ?? '')).toMatchObject([{ branch: draftBranch, number: 1, operation: 'created' }]);
    // A week whose transcripts glob finds nothing: the draft is no longer proposed, and the step says why.
    const empty = await run('logs/*.jsonl');
    expect(empty.code, empty.stdout).toBe(0);
    expect(empty.stdout).toContain(`::warning::transcripts: "logs/*.jsonl" matched no file in ${origin.workspace}`);
    expect(JSON.parse(empty.outputs['pull-requests'] ?? '')).toMatchObject([{ branch: draftBranch, number: 1, operation: 'closed' }]);
    expect(readBranch(origin.bare, draftBranch)).toBeNull();
    const again = await run('*.jsonl');
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).not.toContain('closed without merging');
    expect(JSON.parse(again.outputs['pull-requests'] ?? '')).toMatchObject([{ branch: draftBranch, number: 2, operation: 'created' }]);
    expect(fake.pulls[1]!.state).toBe('open');
    expect(readBranch(origin.bare, draftBranch)).not.toBeNull();
    expect(fake.violations).toEqual([]);
  });

  it('propose → a person closes it without merging → not proposed again', async () => {
    const { origin, fake } = await deployLibrary();
    writeSessions(origin.workspace);
    const env = runnerEnv({
      workspace: origin.workspace,
      apiUrl: fake.url,
      inputs: { mode: 'curate', consolidate: 'true', transcripts: '*.jsonl' },
    });
    const first = await runAction(action.entry, env);
    expect(JSON.parse(first.outputs['pull-requests'] ?? '')).toHaveLength(2);
    for (const pull of fake.pulls) pull.state = 'closed';
    const again = await runAction(action.entry, env);
    expect(again.code, again.stdout).toBe(0);
    expect(JSON.parse(again.outputs['pull-requests'] ?? '')).toEqual([]);
    expect(again.stdout).toContain(`Not proposing ${umbrellaBranch} again: it was closed without merging in #`);
    expect(again.stdout).toContain(`Not proposing ${draftBranch} again: it was closed without merging in #`);
    expect(fake.requests.filter((r) => r.operationId === 'pulls/create')).toHaveLength(2);
    expect(fake.pulls).toHaveLength(2);
    expect(fake.violations).toEqual([]);
  });

  it('proposals never overlap: a skill the umbrella changes stays out of the lifecycle proposal, both bodies say so, and a declined umbrella lets it back', async () => {
    const origin = createOrigin([{ name: 'tired-helper', age: 40, actor: 'agent' }]);
    const work = origin.workspace;
    // Two agent skills idle for 40 days (due to be marked stale) that an umbrella would merge.
    for (const topic of ['staging', 'production'])
      writeTree(work, {
        [`skills/deploy-${topic}/SKILL.md`]: `---\nname: deploy-${topic}\ndescription: Deploy ${topic} notes for the web service. Use when deploying to ${topic}.\n---\n${deployText(topic)}`,
      });
    commitAt(
      work,
      'skill(create): deploy notes\n\nSkill-Action: create\nSkill-Name: deploy-staging\nSkill-Name: deploy-production\nSkill-Actor: agent\nSkill-Source: background',
      40,
    );
    git(work, 'push', '-q', 'origin', 'main');
    const fake = await action.github(origin);
    const env = runnerEnv({ workspace: work, apiUrl: fake.url, inputs: { mode: 'curate', consolidate: 'true' } });
    const first = await runAction(action.entry, env);
    expect(first.code, first.stdout).toBe(0);
    const lifecycle = fake.pulls.find((p) => p.head.ref === 'skillgarden/lifecycle')!;
    const umbrella = fake.pulls.find((p) => p.head.ref === umbrellaBranch)!;
    const trailers = parseCommitMessage(git(origin.bare, 'log', '-1', '--format=%B', 'skillgarden/lifecycle')).trailers;
    expect(trailers.skills).toEqual(['tired-helper']);
    expect(git(origin.bare, 'diff', '--name-only', 'main', 'skillgarden/lifecycle').trim()).toBe(
      `.skillgarden/state.json\n${recordPath('tired-helper')}`,
    );
    for (const name of ['deploy-production', 'deploy-staging']) {
      expect(lifecycle.body).toContain(
        `\`${name}\` is left out (active → stale would be due): the umbrella proposal \`${umbrellaBranch}\` changes it`,
      );
      expect(umbrella.body).toContain(`\`${name}\` would be due active → stale: the lifecycle proposal leaves it to this one`);
    }
    // A person declines the umbrella: it is not proposed again, and the lifecycle now decides its members.
    umbrella.state = 'closed';
    const again = await runAction(action.entry, env);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain(`Not proposing ${umbrellaBranch} again`);
    expect(JSON.parse(again.outputs['pull-requests'] ?? '')).toMatchObject([{ branch: 'skillgarden/lifecycle', operation: 'updated' }]);
    const updated = parseCommitMessage(git(origin.bare, 'log', '-1', '--format=%B', 'skillgarden/lifecycle')).trailers;
    expect(updated.skills).toEqual(['deploy-production', 'deploy-staging', 'tired-helper']);
    expect(lifecycle.body).not.toContain('is left out');
    expect(fake.violations).toEqual([]);
  });
});
