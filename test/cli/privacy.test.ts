import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeClaudeCode, writeCodex, type Session } from '../fixtures/task-transcripts/write.js';
import { startFakeEndpoint, fakeKey, type FakeEndpoint } from '../llm/fake-endpoint.js';
import { createAgentSkills } from '../helpers/agent-skills.js';
import { cli } from '../helpers/cli.js';
import { git, repoWith } from '../helpers/repo.js';
import { tempDir } from '../helpers/tmp.js';

// What people type and run: a GitHub token in a prompt, passwords on command lines, an e-mail address, a home folder.
const token = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
const privateStrings = [token, 'S3cr3tPass99', 'Hunter2pass', 'pa55word', 'alice.smith@example.com', '/home/alice', 'alice'];

const release: Session[] = [0, 1, 2].map((n) => ({
  id: `codex-release-${n}`,
  request: `Cut a release of the package and publish it to npm. My token is ${token}; mail alice.smith@example.com when it is out.`,
  calls: [
    'npm test',
    'docker login -u alice -p S3cr3tPass99 registry.example.com',
    `npm version ${['2.4.0', '2.4.1', '2.5.0'][n]}`,
    'curl -u bob:pa55word https://registry.example.com/api/promote 2>&1',
    'npm publish --access public',
  ],
}));

const fixTests: Session[] = ['parser', 'dates', 'auth'].map((topic) => ({
  id: `cc-fix-${topic}`,
  request: `Fix the failing ${topic} tests; the fixtures need mysql -u root -pHunter2pass to load.`,
  calls: [
    'mysql -u root -pHunter2pass app_test < fixtures/seed.sql',
    'npm test -- --run',
    ['Read', { file_path: `/home/alice/work/app/src/${topic}.ts` }],
    ['Edit', { file_path: `/home/alice/work/app/src/${topic}.ts`, old_string: 'a', new_string: 'b' }],
    'npm test -- --run',
  ],
}));

/** Every file under `dir`, as text: what a run left on disk. */
function readAll(dir: string): string {
  let out = '';
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    out += statSync(path).isDirectory() ? readAll(path) : `${path}\n${readFileSync(path, 'latin1')}\n`;
  }
  return out;
}

/** Every commit, message and content, on every ref, and the proposal records: what a run committed or would push. */
function readHistory(repo: string): string {
  return [git(repo, 'log', '--all', '-p', '--format=%H%n%B'), git(repo, 'for-each-ref'), readAll(join(repo, '.git', 'skillgarden'))].join(
    '\n',
  );
}

async function library(): Promise<string> {
  const dir = repoWith({ 'README.md': 'notes\n' });
  const lintDocs = '---\nname: lint-docs\ndescription: Lint the docs folder. Use when docs change.\n---\n# Lint docs\n\nRun the linter.\n';
  await createAgentSkills(dir, { 'lint-docs': lintDocs }, new Date('2026-10-01T00:00:00Z'));
  return dir;
}

function transcripts(): string {
  const dir = tempDir('sg-private-transcripts-');
  writeCodex(join(dir, 'codex'), release, 2);
  writeClaudeCode(dir, fixTests, 5);
  return dir;
}

function expectNothingPrivate(text: string, where: string, extra: readonly string[] = []): void {
  for (const secret of [...privateStrings, ...extra]) expect(text.includes(secret), `${secret} in ${where}`).toBe(false);
}

let endpoint: FakeEndpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

describe('nothing private leaves the machine', () => {
  it('curate --propose: no token, password, e-mail address or home path in a branch, a commit, the records, the report or the output', async () => {
    const repo = await library();
    const sessions = transcripts();
    const reports = tempDir('sg-private-report-');
    const run = await cli(
      [
        '--now',
        '2026-11-01T00:00:00Z',
        '--repo',
        repo,
        'curate',
        '--propose',
        '--json',
        '--transcripts',
        sessions,
        '--report-dir',
        reports,
      ],
      { cwd: repo },
    );
    expect(run.code, run.stderr).toBe(0);
    // Not vacuous: the run drafted from these sessions, and the draft is on its branch.
    const branches = git(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/skillgarden/new/')
      .trim()
      .split('\n')
      .filter(Boolean);
    expect(branches.length).toBeGreaterThan(0);
    const drafted = branches.map((b) => git(repo, 'show', `${b}:skills/${b.slice('skillgarden/new/'.length)}/SKILL.md`)).join('\n');
    expect(drafted).toMatch(/\$REGISTRY_PASSWORD|\$MYSQL_PASSWORD|<user>:\$PASSWORD/);
    // Transcripts are named relative to where they were found, never by an absolute path.
    expectNothingPrivate(readHistory(repo), 'history', [sessions]);
    expectNothingPrivate(readAll(reports), 'the report folder', [sessions]);
    expectNothingPrivate(run.stdout + run.stderr, 'the output', [sessions]);
  });

  it('detect --llm: the request to the model carries no private text', async () => {
    endpoint = await startFakeEndpoint(['draft-good']);
    const sessions = transcripts();
    const run = await cli(['detect', '--transcripts', '.', '--llm', '--json'], {
      cwd: sessions,
      env: { SKILLGARDEN_LLM_BASE_URL: endpoint.baseUrl, SKILLGARDEN_LLM_MODEL: 'fake-model', SKILLGARDEN_LLM_API_KEY: fakeKey },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(endpoint.bodies.length).toBeGreaterThan(0);
    expectNothingPrivate(endpoint.bodies.join('\n'), 'the model request');
    expectNothingPrivate(run.stdout, 'the output');
  });
});
