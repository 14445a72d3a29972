import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildPlanReport, planConsolidation, renderPlansMarkdown, renderPlansText } from '../../../src/core/consolidate/index.js';
import { curated, deployFamily, now } from './library.js';

const schema = JSON.parse(readFileSync(new URL('../../../schemas/plan-report.schema.json', import.meta.url), 'utf8')) as object;
const validateReport = new Ajv2020.default({ strict: true }).compile(schema);
const configSchema = JSON.parse(
  readFileSync(new URL('../../../schemas/consolidation-config.schema.json', import.meta.url), 'utf8'),
) as object;

describe('plan reports', () => {
  const skills = [...deployFamily(), curated('deploy-secrets', '# Secrets\n\n[vault](/etc/vault.md) for the web service deploy.\n')];
  const report = buildPlanReport(planConsolidation({ skills, now }));

  it('matches plan-report.schema.json, with DESIGN §12 fields', () => {
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report.consolidations).toEqual([
      { from: 'deploy-canary', into: 'deploy-web-service', reason: expect.stringContaining('share the name prefix `deploy`') },
      { from: 'deploy-production', into: 'deploy-web-service', reason: expect.any(String) },
      { from: 'deploy-staging', into: 'deploy-web-service', reason: expect.any(String) },
    ]);
    expect(report.skipped[0]?.names).toEqual(['deploy-secrets']);
  });

  it('explains each plan in words: prefix, similarity range, tools', () => {
    expect(report.plans[0]?.reason).toMatch(
      /^3 skills share the name prefix `deploy`; content similarity \(estimated Jaccard of their words\) 0\.\d\d–0\.\d\d, mean 0\.\d\d/,
    );
    expect(renderPlansText(report)).toContain('create deploy-canary, deploy-production, deploy-staging → deploy-web-service');
  });

  it('renders a REPORT.md section whose YAML summary parses to the structured plan', () => {
    const markdown = renderPlansMarkdown(report);
    expect(markdown).toContain('### create: `deploy-canary`, `deploy-production`, `deploy-staging` → `deploy-web-service`');
    expect(markdown).toContain('| `deploy-canary` · `deploy-production` |');
    const yaml = /```yaml\n([\s\S]*?)```/.exec(markdown)?.[1] ?? '';
    expect(parse(yaml)).toEqual({ consolidations: report.consolidations, prunings: [] });
  });

  it('has a config schema fragment whose defaults are the TypeScript defaults', async () => {
    const { defaultConsolidationConfig } = await import('../../../src/core/consolidate/config.js');
    const properties = (configSchema as { properties: Record<string, { default: unknown }> }).properties;
    expect(Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, v.default]))).toEqual({ ...defaultConsolidationConfig });
    expect(new Ajv2020.default({ strict: true }).compile(configSchema)(defaultConsolidationConfig)).toBe(true);
  });
});
