import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { planCommand } from '../../../src/cli/commands/plan.js';
import type { CommandContext } from '../../../src/cli/context.js';
import { git, repoWith } from '../../helpers/repo.js';
import { createAgentSkills } from '../../helpers/agent-skills.js';

const schema = JSON.parse(readFileSync(new URL('../../../schemas/plan-report.schema.json', import.meta.url), 'utf8')) as object;
const validateReport = new Ajv2020.default({ strict: true }).compile(schema);
const now = new Date('2026-11-30T00:00:00Z');

async function runPlan(dir: string, options: { json?: boolean; markdown?: boolean } = {}): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const context: CommandContext = {
    io: {
      stdout: { write: (chunk: string | Uint8Array) => ((stdout += String(chunk)), true) },
      stderr: { write: () => true },
      env: {},
      cwd: dir,
      interactive: false,
    },
    global: { repo: dir, now, json: options.json ?? false },
    positionals: [],
    values: { markdown: options.markdown },
  };
  return { code: await planCommand.run(context), stdout };
}

function skillText(name: string, topic: string): string {
  return `---\nname: ${name}\ndescription: Deploy ${topic} notes for the web service. Use when deploying to ${topic}.\n---\n# ${topic}\n\nDeploy the web service to ${topic} servers and watch the release.\n`;
}

describe('plan command', () => {
  it("plans skills the agent created in the background, and not a person's, without changing the repository", async () => {
    const dir = repoWith({ 'skills/deploy-manual/SKILL.md': skillText('deploy-manual', 'manual') });
    await createAgentSkills(
      dir,
      Object.fromEntries(['staging', 'production'].map((t) => [`deploy-${t}`, skillText(`deploy-${t}`, t)])),
      now,
    );
    const head = git(dir, 'rev-parse', 'HEAD');
    const { code, stdout } = await runPlan(dir, { json: true });
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { plans: Array<{ into: string; from: string[]; kind: string }> };
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.plans.map((p) => [p.kind, p.into, p.from])).toEqual([['create', 'deploy', ['deploy-production', 'deploy-staging']]]);
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('prints text by default and a REPORT.md section with --markdown', async () => {
    const dir = repoWith({
      'skills/deploy-a/SKILL.md': skillText('deploy-a', 'alpha'),
      'skills/deploy-b/SKILL.md': skillText('deploy-b', 'beta'),
      '.skillgarden/adopted.txt': 'deploy-a\ndeploy-b\n',
    });
    expect((await runPlan(dir)).stdout).toContain('create deploy-a, deploy-b → deploy');
    expect((await runPlan(dir, { markdown: true })).stdout).toContain('## Consolidation plans');
  });

  it('says so when there is nothing to plan', async () => {
    const dir = repoWith({ 'skills/deploy-a/SKILL.md': skillText('deploy-a', 'alpha') });
    expect((await runPlan(dir)).stdout).toBe('no consolidation plans\n');
  });
});
