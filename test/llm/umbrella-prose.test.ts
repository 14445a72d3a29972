import { afterEach, describe, expect, it } from 'vitest';
import { buildGuardInput, planConsolidation, type ConsolidationPlan } from '../../src/core/consolidate/index.js';
import { requestChatCompletion, writeUmbrellaProse, type ChatClientOptions } from '../../src/llm/index.js';
import { curated, deployFamily, now, written } from '../core/consolidate/library.js';
import { fakeKey, startFakeEndpoint, type FakeEndpoint, type FakeMode } from './fake-endpoint.js';

let endpoint: FakeEndpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

const other = curated('release-notes', 'Run deploy-staging first.\n', { provenance: 'user', description: 'Writes release notes.' });
const input = { skills: [...deployFamily(), other], now };

async function prose(script: FakeMode[], client: Partial<ChatClientOptions> = {}, skills = input) {
  endpoint = await startFakeEndpoint(script, { slowMs: 1500 });
  const plan = planConsolidation(skills).plans[0] as ConsolidationPlan;
  const result = await writeUmbrellaProse(plan, buildGuardInput(plan, skills), {
    baseUrl: endpoint.baseUrl,
    model: 'fake-model',
    apiKey: fakeKey,
    timeoutMs: 500,
    retries: 2,
    backoffMs: 10,
    ...client,
  });
  expect(endpoint.violations).toEqual([]);
  return { plan, result, requests: endpoint.requests };
}

describe('writeUmbrellaProse against a local chat-completions endpoint', () => {
  it('uses a good answer, after it passed the guard, with metadata.absorbed set from the diff', async () => {
    const { plan, result } = await prose(['good']);
    expect(result.llm).toEqual({ used: true, model: 'fake-model' });
    const text = written(result.plan.changes, 'skills/deploy/SKILL.md');
    expect(text).toContain('Start here for every deploy task');
    expect(text).toContain('absorbed: deploy-canary, deploy-production, deploy-staging');
    expect(result.plan.changes.length).toBe(plan.changes.length);
  });

  it.each<[string, FakeMode[], RegExp]>([
    ['drops a section', ['drop-section'], /refused: .*Canary deploy/],
    ['writes invalid frontmatter', ['bad-frontmatter'], /refused/],
    ['lies about what it merged', ['lie'], /claims to have merged release-notes/],
    ['does not answer JSON', ['not-json'], /did not answer the JSON object/],
    ['is too slow, every time', ['slow'], /model call failed: .*did not answer within 500 ms/],
    ['fails with 500, every time', ['error-500'], /model call failed: .*answered 500/],
    ['was prompt-injected', ['inject'], /refused: the scan flags what it added \(.*inject-ignore-instructions.*supply-curl-pipe-shell/],
    ['widens allowed-tools', ['inject-frontmatter'], /refused: changes frontmatter other than the description: allowed-tools/],
  ])('keeps the deterministic umbrella when the model %s', async (_, script, reason) => {
    const { plan, result } = await prose(script);
    expect(result.llm.used).toBe(false);
    expect(result.llm.reason).toMatch(reason);
    expect(result.plan).toBe(plan);
  });

  it.each<[string, FakeMode[]]>([
    ['a 500', ['error-500', 'good']],
    ['a 429', ['rate-limited', 'rate-limited', 'good']],
    ['a timeout', ['slow', 'good']],
  ])('retries after %s, within its budget', async (_, script) => {
    const { result, requests } = await prose(script);
    expect(result.llm.used).toBe(true);
    expect(requests).toBe(script.length);
  });

  describe("each member's own rollback step, though the members' steps read alike with their names masked", () => {
    const rollback = (name: string) =>
      `## Rollback\n\nIf the release fails, run \`scripts/rollback.sh ${name}\` to deploy the previous release of ${name}.\n`;
    const family = {
      now,
      skills: [
        curated(
          'deploy-staging',
          `# Deploy to staging\n\nRun the deploy script against the staging servers.\n\n${rollback('deploy-staging')}`,
        ),
        curated(
          'deploy-production',
          `# Deploy to production\n\nRun the deploy script against the production servers after approval.\n\n${rollback('deploy-production')}`,
        ),
        curated(
          'deploy-canary',
          `# Canary deploy\n\nDeploy to the canary servers first and watch the error rate.\n\n${rollback('deploy-canary')}`,
        ),
      ],
    };

    it('the good answer passes', async () => {
      const { result } = await prose(['good'], {}, family);
      expect(result.llm).toEqual({ used: true, model: 'fake-model' });
    });

    it.each<[string, FakeMode, RegExp]>([
      [
        'replaced by a destructive command',
        'swap-rollback',
        /drops the paragraph "If the release fails, run `scripts\/rollback.sh deploy-production/,
      ],
      ['dropped', 'drop-rollback', /drops the paragraph "If the release fails, run `scripts\/rollback.sh deploy-production/],
      ['kept, but a key the plan never had is added', 'inject-frontmatter', /adds frontmatter the plan does not have: allowed-tools/],
    ])("is refused when production's is %s: the deterministic umbrella stays", async (_, mode, reason) => {
      const { plan, result } = await prose([mode], {}, family);
      expect(result.llm.used).toBe(false);
      expect(result.llm.reason).toMatch(reason);
      expect(result.plan).toBe(plan);
      expect(written(result.plan.changes, 'skills/deploy/SKILL.md')).toContain('rollback.sh deploy-production');
    });
  });

  it('stops after the retry budget', async () => {
    const { requests } = await prose(['error-500'], { retries: 2 });
    expect(requests).toBe(3);
  });

  it('does not retry a client error (a wrong key)', async () => {
    endpoint = await startFakeEndpoint(['good']);
    await expect(
      requestChatCompletion({ baseUrl: endpoint.baseUrl, model: 'm', apiKey: 'wrong', retries: 3, backoffMs: 1 }, [
        { role: 'user', content: 'hi' },
      ]),
    ).rejects.toMatchObject({ code: 'llm/http', data: { status: 401 } });
    expect(endpoint.requests).toBe(1);
    expect(endpoint.violations).toEqual(['authorization Bearer wrong']);
  });

  it('reports an unreachable endpoint as a network error', async () => {
    await expect(
      requestChatCompletion({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', retries: 0 }, [{ role: 'user', content: 'hi' }]),
    ).rejects.toMatchObject({ code: 'llm/network' });
  });
});
