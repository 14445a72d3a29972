import { describe, expect, it } from 'vitest';
import { checkPlan, planConsolidation, type ConsolidationPlan, type CuratedSkill } from '../../../src/core/consolidate/index.js';
import { PortableValidations } from '../../../src/core/consolidate/validity.js';
import { curated, deployFamily, now } from './library.js';

const other = curated('release-notes', 'Run deploy-staging first.\n', { provenance: 'user', description: 'Writes release notes.' });
const job = { path: 'jobs/nightly.yaml', text: 'skill: deploy-staging\n' };

function setup(): { plan: ConsolidationPlan; before: CuratedSkill[]; outside: Map<string, string> } {
  const skills = deployFamily();
  const plan = planConsolidation({ skills: [...skills, other], references: [job], now }).plans[0]!;
  const outside = new Map([
    [`${other.dir}/SKILL.md`, other.text],
    [job.path, job.text],
    ['skills/unrelated/SKILL.md', 'untouched'],
  ]);
  return { plan, before: skills, outside };
}

type Tamper = (plan: ConsolidationPlan) => ConsolidationPlan;
const editUmbrella = (plan: ConsolidationPlan, edit: (text: string) => string): ConsolidationPlan => ({
  ...plan,
  changes: plan.changes.map((c) => (c.path === `${plan.intoDir}/SKILL.md` ? { ...c, content: edit(String(c.content)) } : c)),
});

describe('checkPlan', () => {
  it('accepts the plan the planner made', () => {
    const { plan, before, outside } = setup();
    expect(checkPlan({ plan, before, outside })).toEqual([]);
  });

  it.each<[string, Tamper, RegExp]>([
    [
      'a paragraph dropped',
      (p) => editUmbrella(p, (t) => t.replace('Run the rollback script to deploy the previous release.', '')),
      /paragraph is missing/,
    ],
    ['a heading dropped', (p) => editUmbrella(p, (t) => t.replace('### Rollback\n', '')), /heading "Rollback"/],
    [
      'a support file dropped',
      (p) => ({ ...p, changes: p.changes.filter((c) => c.path !== 'skills/deploy/references/api.md') }),
      /references\/api.md is not in the umbrella/,
    ],
    [
      'an archive file dropped',
      (p) => ({ ...p, changes: p.changes.filter((c) => c.path !== 'skills/.archive/deploy-production/scripts/rollback.sh') }),
      /lacks scripts\/rollback.sh/,
    ],
    [
      'a member file left behind',
      (p) => ({ ...p, changes: p.changes.filter((c) => c.path !== 'skills/deploy-staging/references/api.md') }),
      /not moved out/,
    ],
    [
      'an outside file changed beyond the names',
      (p) => ({
        ...p,
        changes: p.changes.map((c) => (c.path === 'jobs/nightly.yaml' ? { ...c, content: 'skill: deploy\nschedule: never\n' } : c)),
      }),
      /changed beyond the merged names/,
    ],
    [
      'an unrelated skill changed',
      (p) => ({ ...p, changes: [...p.changes, { path: 'skills/unrelated/SKILL.md', content: 'hijacked' }] }),
      /unrelated\/SKILL.md is outside/,
    ],
    [
      'an unknown file written',
      (p) => ({ ...p, changes: [...p.changes, { path: 'skills/elsewhere/SKILL.md', content: 'x' }] }),
      /not a known reference file/,
    ],
    [
      'a link broken',
      (p) => editUmbrella(p, (t) => t.replace('references/deploy-staging-api.md', 'references/gone.md')),
      /no longer resolve/,
    ],
    [
      // Sizes are bytes, as validate counts them: 400,000 euro signs are 1.2 MB, though a string of 400,000 units.
      'a support file over 1 MiB in bytes, under it in characters',
      (p) => ({
        ...p,
        changes: p.changes.map((c) =>
          c.path === 'skills/deploy/references/api.md' ? { ...c, content: `${String(c.content)}${'€'.repeat(400_000)}` } : c,
        ),
      }),
      /umbrella is invalid: skill\/support-file-too-large/,
    ],
    ['invalid frontmatter', (p) => editUmbrella(p, (t) => t.replace('name: deploy\n', 'name: Deploy Everything\n')), /umbrella is invalid/],
    [
      'an unrelated skill "absorbed" with nothing merged',
      (p) => ({ ...p, from: [...p.from, 'release-notes'] }),
      /release-notes is absorbed but its original content is unknown/,
    ],
  ])('refuses a plan with %s', (_, tamper, problem) => {
    const { plan, before, outside } = setup();
    const problems = checkPlan({ plan: tamper(plan), before: [...before], outside });
    expect(problems.join('\n')).toMatch(problem);
    // A run's validations that hold the untampered umbrella (as the planner leaves them) change nothing for the tampered one.
    const validations = new PortableValidations();
    expect(checkPlan({ plan, before, outside, validations })).toEqual([]);
    expect(checkPlan({ plan: tamper(plan), before: [...before], outside, validations })).toEqual(problems);
  });
});

describe('PortableValidations', () => {
  it('answers from memory only for the same file, folder, text and file contents, and validates anything else afresh', () => {
    const text = '---\nname: notes\ndescription: Notes. Use when taking notes.\n---\n# Notes\n\n[big](references/big.md)\n';
    const input = { file: 'skills/notes/SKILL.md', folder: 'notes', content: text };
    const small = new Map<string, Uint8Array | string>([['references/big.md', 'x']]);
    const large = new Map<string, Uint8Array | string>([['references/big.md', '€'.repeat(400_000)]]);
    const asBytes = new Map<string, Uint8Array | string>([['references/big.md', new Uint8Array(1_200_000)]]);
    const codes = (v: { findings: Array<{ code: string }> }) => v.findings.map((f) => f.code);
    const validations = new PortableValidations();
    const first = validations.validate({ ...input, contents: small });
    expect(codes(first)).toEqual([]);
    // Equal contents (another Map, another string of the same text): the remembered result.
    expect(validations.validate({ ...input, contents: new Map([['references/big.md', ['x'].join('')]]) })).toBe(first);
    // A file of other contents, bytes for a string, another path or one file fewer: validated again, as validateSkill says.
    expect(codes(validations.validate({ ...input, contents: large }))).toEqual(['skill/support-file-too-large']);
    expect(codes(validations.validate({ ...input, contents: asBytes }))).toEqual(['skill/support-file-too-large']);
    expect(codes(validations.validate({ ...input, contents: new Map([['references/other.md', 'x']]) }))).toContain('skill/link-missing');
    expect(codes(validations.validate({ ...input, contents: new Map() }))).toContain('skill/link-missing');
    expect(codes(validations.validate({ ...input, folder: 'other', contents: small }))).toContain('skill/name-mismatch');
  });
});
