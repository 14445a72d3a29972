import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { checkProsedDraft } from '../../src/core/patterns/draft-prose-check.js';
import type { DetectedPattern, DraftSkill } from '../../src/core/patterns/types.js';
import { writeDraftProse, type ChatClientOptions } from '../../src/llm/index.js';
import { runDetect } from '../../src/services/detect.js';
import { writeTaskTranscripts } from '../fixtures/task-transcripts/scenarios.js';
import { cli } from '../helpers/cli.js';
import { repoWith } from '../helpers/repo.js';
import { fakeKey, startFakeEndpoint, type FakeEndpoint, type FakeMode } from './fake-endpoint.js';

const dir = mkdtempSync(join(tmpdir(), 'sg-draft-prose-'));
writeTaskTranscripts(dir);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let endpoint: FakeEndpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

const client = (baseUrl: string): ChatClientOptions => ({
  baseUrl,
  model: 'fake-model',
  apiKey: fakeKey,
  timeoutMs: 500,
  retries: 1,
  backoffMs: 5,
});

/** The drafts the reviewer's transcripts give (three formats): the deterministic ones, the inputs of the pass. */
async function drafts(): Promise<DraftSkill[]> {
  const report = await runDetect({ transcripts: ['.'], cwd: dir });
  return report.patterns.flatMap((p: DetectedPattern) => (p.draft ? [p.draft] : []));
}

describe('the optional LLM pass over drafts, against a local chat-completions endpoint', () => {
  it('uses a rewrite that keeps the name, the frontmatter, the trigger and every command', async () => {
    endpoint = await startFakeEndpoint(['draft-good']);
    const [draft] = await drafts();
    const result = await writeDraftProse(draft!, client(endpoint.baseUrl));
    expect(endpoint.violations).toEqual([]);
    expect(result.llm).toEqual({ used: true, model: 'fake-model' });
    expect(result.draft.text).toContain('The steps below are what the sessions did, in order.');
    expect(result.draft.text).toContain('A reviewed procedure.');
    expect(result.draft.name).toBe(draft!.name);
    expect(result.draft.evidence).toEqual(draft!.evidence);
  });

  it.each<[string, FakeMode, RegExp]>([
    ['renames the skill', 'draft-rename', /the name changed/],
    ['drops the "Use when" trigger', 'draft-drop-trigger', /dropped the trigger "Use when asked to/],
    ['drops a command of the steps', 'draft-drop-step', /commands or arguments of the steps are gone: `/],
    [
      'claims files the draft does not have',
      'draft-claim-file',
      /names files the draft does not have: references\/details\.md, scripts\/check\.sh/,
    ],
    ['writes a description over 1024 characters', 'draft-long-description', /description is \d+ characters, over 1024/],
    ['touches the evidence in the metadata', 'draft-touch-metadata', /frontmatter other than the description changed/],
    ['was prompt-injected', 'inject', /refused: the scan flags what it added \(.*inject-ignore-instructions/],
    ['does not answer JSON', 'not-json', /did not answer the JSON object/],
    ['fails with 500, every time', 'error-500', /model call failed: .*answered 500/],
    ['is too slow, every time', 'slow', /model call failed: .*did not answer within 500 ms/],
  ])('keeps the deterministic draft when the model %s', async (_, mode, reason) => {
    endpoint = await startFakeEndpoint([mode], { slowMs: 1500 });
    const [draft] = await drafts();
    const result = await writeDraftProse(draft!, client(endpoint.baseUrl));
    expect(endpoint.violations).toEqual([]);
    expect(result.llm.used).toBe(false);
    expect(result.llm.reason).toMatch(reason);
    expect(result.draft).toBe(draft);
  });

  it('runs through detect: every draft carries what the pass did', async () => {
    endpoint = await startFakeEndpoint(['draft-good', 'draft-claim-file']);
    const report = await runDetect({ transcripts: ['.'], cwd: dir, llm: client(endpoint.baseUrl) });
    const notes = report.patterns.flatMap((p) => (p.draft ? [p.draft.llm] : []));
    expect(notes).toHaveLength(2);
    expect(notes.map((n) => n?.used)).toEqual([true, false]);
    expect(endpoint.requests).toBe(2);
  });
});

describe('checkProsedDraft', () => {
  it('accepts the draft itself, and refuses invalid YAML', async () => {
    const [draft] = await drafts();
    expect(checkProsedDraft(draft!.text, draft!.text)).toEqual({ ok: true, text: draft!.text });
    const broken = draft!.text.replace(/^name: /m, 'name: [');
    expect(checkProsedDraft(draft!.text, broken)).toMatchObject({
      ok: false,
      problems: expect.arrayContaining([expect.stringMatching(/not valid YAML/)]),
    });
  });
});

describe('detect --llm and the config limits, through the CLI', () => {
  it('rewrites the drafts through the configured endpoint, and honours patterns: max_drafts', async () => {
    const repo = repoWith({ 'skills/.keep': '', '.skillgarden/config.yaml': 'patterns:\n  max_drafts: 1\n' });
    writeTaskTranscripts(join(repo, 'transcripts'));
    endpoint = await startFakeEndpoint(['draft-good']);
    const env = { SKILLGARDEN_LLM_BASE_URL: endpoint.baseUrl, SKILLGARDEN_LLM_MODEL: 'fake-model', SKILLGARDEN_LLM_API_KEY: fakeKey };
    const run = await cli(['--repo', repo, 'detect', '--transcripts', 'transcripts', '--json', '--llm'], { cwd: repo, env });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { patterns: DetectedPattern[] };
    const drafted = report.patterns.filter((p) => p.draft);
    expect(drafted).toHaveLength(1);
    expect(drafted.map((p) => p.draft?.llm)).toEqual([{ used: true, model: 'fake-model' }]);
    expect(report.patterns.some((p) => p.reason?.startsWith('beyond max_drafts (1)'))).toBe(true);
    expect(endpoint.requests).toBe(1);

    const unset = await cli(['--repo', repo, 'detect', '--transcripts', 'transcripts', '--llm'], { cwd: repo });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toMatch(/--llm needs SKILLGARDEN_LLM_BASE_URL/);
  });
});
