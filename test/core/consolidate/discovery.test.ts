import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { firstClause, readTrigger } from '../../../src/core/consolidate/description.js';
import { planConsolidation, type ConsolidationPlan } from '../../../src/core/consolidate/index.js';
import type { CuratedSkill } from '../../../src/core/consolidate/types.js';
import { corpusSkillsRoot, missingFullCorpus } from '../../helpers/corpus.js';
import { buildLabelledLibrary, readCorpusEntries } from '../../fixtures/consolidate/labelled-library.js';
import { curated, deployFamily, now } from './library.js';

function umbrellaText(plan: ConsolidationPlan): string {
  const change = plan.changes.find((c) => c.path === `${plan.intoDir}/SKILL.md`);
  return typeof change?.content === 'string' ? change.content : '';
}

function frontmatter(text: string): Record<string, unknown> {
  return parse(/^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? '') as Record<string, unknown>;
}

/** The trigger phrase a member is found by: its "Use when …" condition, or else its first clause. */
function triggerOf(skill: CuratedSkill): string {
  const value = frontmatter(skill.text).description;
  const description = typeof value === 'string' ? value : '';
  return readTrigger({ name: skill.name, description }) ?? firstClause(description, 200);
}

const folders = /\b(references|templates|scripts|assets)\//g;

function checkUmbrella(plan: ConsolidationPlan, skills: readonly CuratedSkill[]): void {
  const text = umbrellaText(plan);
  const fields = frontmatter(text);
  const metadata = (fields.metadata ?? {}) as Record<string, unknown>;
  const found = `${String(fields.description)} ${typeof metadata.when_to_use === 'string' ? metadata.when_to_use : ''}`
    .toLowerCase()
    .replace(/\s+/g, ' ');
  for (const name of plan.from) {
    const member = skills.find((s) => s.name === name) as CuratedSkill;
    const trigger = triggerOf(member).toLowerCase().replace(/[<>]/g, '').replace(/\s+/g, ' ');
    // A trigger cut for length still starts the same way.
    expect(found, `${plan.into} keeps the trigger of ${name}`).toContain(trigger.replace(/…$/, '').slice(0, 60));
  }
  expect([...String(fields.description)].length).toBeLessThanOrEqual(1024);
  for (const [, folder] of String(fields.description).matchAll(folders)) {
    expect(plan.changes.some((c) => c.path.startsWith(`${plan.intoDir}/${folder}/`) && c.content !== null)).toBe(true);
  }
  expect(text).not.toMatch(/Was the skill|any .* task/);
  for (const name of plan.from) expect(text).toContain(`<!-- skillgarden: from the skill ${name} `);
}

describe('umbrellas written for discovery', () => {
  it('keeps each member trigger, merged and de-duplicated, and heads sections with their own titles', () => {
    const { plans } = planConsolidation({ skills: deployFamily(), now });
    expect(plans).toHaveLength(1);
    const plan = plans[0] as ConsolidationPlan;
    checkUmbrella(plan, deployFamily());
    const text = umbrellaText(plan);
    // Every member says "Use when deploying the web service to servers": said once.
    expect(text.match(/deploying the web service to servers/g)?.length).toBe(1 + plan.from.length);
    expect(frontmatter(text).description).toMatch(/Use when deploying the web service to servers\.$/);
    expect(text).toContain('## Deploy to staging');
  });

  it('puts triggers that do not fit into when_to_use', () => {
    const long = (n: number) =>
      curated(`deploy-region-${n}`, `# Region ${n}\n\nRun the deploy script for region ${n} of the web service.\n`, {
        description: `Deploy notes for region ${n} of the web service. Use when ${'the on-call engineer rolls out a hotfix to a region with its own rules '.repeat(3)}number ${n}.`,
      });
    const skills = Array.from({ length: 6 }, (_, i) => long(i + 1));
    const { plans } = planConsolidation({ skills, now });
    const text = umbrellaText(plans[0] as ConsolidationPlan);
    const fields = frontmatter(text);
    expect(String((fields.metadata as Record<string, unknown>).when_to_use)).toContain('number 6');
    checkUmbrella(plans[0] as ConsolidationPlan, skills);
  });

  it.skipIf(missingFullCorpus())('keeps every trigger on the planted libraries, and names no folder that is not there', () => {
    const library = buildLabelledLibrary(readCorpusEntries(), { topics: 15, singletons: 60 });
    const { plans } = planConsolidation({ skills: library.skills, now });
    expect(plans.length).toBeGreaterThan(5);
    for (const plan of plans) checkUmbrella(plan, library.skills);
  });
});

describe('evidence before a plan', () => {
  const sciRoot = join(corpusSkillsRoot, 'K-Dense-AI__claude-scientific-skills', 'scientific-skills');
  it.skipIf(missingFullCorpus(sciRoot))('gives no plan for the scientific-* skills: shared prefix, different content, long bodies', () => {
    const names = ['slides', 'visualization', 'writing', 'schematics', 'brainstorming', 'critical-thinking'].map((n) => `scientific-${n}`);
    const skills = names.map((name) => ({
      name,
      dir: `skills/${name}`,
      text: readFileSync(join(sciRoot, name, 'SKILL.md'), 'utf8'),
      files: [],
      provenance: 'agent' as const,
      pinned: false,
    }));
    const result = planConsolidation({ skills, now });
    expect(result.clusters.length).toBeGreaterThan(0);
    expect(result.plans).toEqual([]);
    expect(result.skipped.some((s) => s.reason.startsWith('similar names, different content'))).toBe(true);
  });

  it('gives no plan for a library built like it: one long skill and short ones on other subjects', () => {
    const short = [
      curated(
        'lab-pipettes',
        '# Pipette calibration\n\nWeigh ten draws of water at 20 °C; the mean must sit within 0.8 % of the nominal volume.\n',
        {
          description: 'Pipette calibration by gravimetry. Use when a pipette drifts.',
        },
      ),
      curated(
        'lab-freezer',
        '# Freezer inventory\n\nScan each rack barcode into the sheet; boxes without a label go to the bottom shelf.\n',
        {
          description: 'Freezer rack inventory with barcodes. Use when restocking the minus-eighty.',
        },
      ),
      curated(
        'lab-microscope',
        '# Microscope booking\n\nReserve confocal slots on the shared calendar a week ahead, two hours at most.\n',
        {
          description: 'Booking the confocal microscope. Use when imaging samples.',
        },
      ),
    ];
    const longBody = Array.from(
      { length: 120 },
      (_, i) => `Line ${i} about writing grant proposals, budgets of the narrative and reviewers.`,
    ).join('\n');
    const long = curated('lab-grants', `# Grant writing\n\n${longBody}\n`, {
      description: 'Grant writing for the lab. Use when writing a grant proposal.',
    });
    const result = planConsolidation({ skills: [...short, long], now });
    expect(result.plans).toEqual([]);
  });

  it('demotes a long member only with strong content evidence', () => {
    const body = (extra: string) =>
      `# Deploy\n\n${Array.from({ length: 50 }, (_, i) => `Step ${i}: run the deploy script for the web service ${extra}.`).join('\n')}\n`;
    const skills = [
      curated('deploy-staging', '# Deploy to staging\n\nRun the deploy script against staging.\n'),
      curated('deploy-production', '# Deploy to production\n\nRun the deploy script against production.\n'),
      curated('deploy-long', body('carefully')),
    ];
    const near = planConsolidation({ skills, now });
    const far = planConsolidation({ skills, now, config: { demote_min_similarity: 0.99 } });
    expect(near.plans[0]?.from).toContain('deploy-long');
    expect(far.plans[0]?.from ?? []).not.toContain('deploy-long');
    expect(far.skipped.find((s) => s.names.join() === 'deploy-long')?.reason).toMatch(/^similar names, different content/);
  });
});
