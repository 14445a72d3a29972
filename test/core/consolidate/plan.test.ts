import { describe, expect, it } from 'vitest';
import { planConsolidation } from '../../../src/core/consolidate/index.js';
import { parseSkill } from '../../../src/core/skill/index.js';
import { validateSkill } from '../../../src/core/validate.js';
import { curated, deployFamily, now, written } from './library.js';

describe('planConsolidation', () => {
  it('creates an umbrella named for the prefix, with a section per member, and archives the members whole', () => {
    const { plans, dropped, skipped } = planConsolidation({ skills: deployFamily(), now });
    expect(dropped).toEqual([]);
    expect(skipped).toEqual([]);
    expect(plans).toHaveLength(1);
    const plan = plans[0]!;
    expect(plan).toMatchObject({
      kind: 'create',
      into: 'deploy',
      intoDir: 'skills/deploy',
      from: ['deploy-canary', 'deploy-production', 'deploy-staging'],
    });
    const text = written(plan.changes, 'skills/deploy/SKILL.md');
    const skill = parseSkill(text, { file: 'SKILL.md' });
    expect(skill.fields['allowed-tools']).toBe('Bash Grep Read');
    expect(skill.fields.metadata).toEqual({ absorbed: 'deploy-canary, deploy-production, deploy-staging' });
    expect(skill.body).toContain('## Deploy to staging');
    expect(skill.body).toContain('### Rollback');
    expect(plan.archived.map((a) => a.to)).toEqual([
      'skills/.archive/deploy-canary',
      'skills/.archive/deploy-production',
      'skills/.archive/deploy-staging',
    ]);
    expect(written(plan.changes, 'skills/.archive/deploy-production/scripts/rollback.sh')).toBe(
      new TextDecoder().decode(new Uint8Array([35, 33, 47, 98, 105, 110, 47, 115, 104, 10, 0, 255])),
    );
    expect(
      plan.changes
        .filter((c) => c.content === null)
        .map((c) => c.path)
        .sort(),
    ).toEqual([
      'skills/deploy-canary/SKILL.md',
      'skills/deploy-production/SKILL.md',
      'skills/deploy-production/references/api.md',
      'skills/deploy-production/scripts/rollback.sh',
      'skills/deploy-staging/SKILL.md',
      'skills/deploy-staging/references/api.md',
    ]);
  });

  it('writes an umbrella that is valid under portable and spec', () => {
    const plan = planConsolidation({ skills: deployFamily(), now }).plans[0]!;
    const files = new Map(
      plan.changes
        .filter((c) => c.path.startsWith('skills/deploy/') && c.content !== null)
        .map((c) => [c.path.slice('skills/deploy/'.length), { path: c.path, size: 1 }]),
    );
    for (const profile of ['portable', 'spec'] as const) {
      const { findings } = validateSkill({
        file: 'skills/deploy/SKILL.md',
        content: written(plan.changes, 'skills/deploy/SKILL.md'),
        folder: 'deploy',
        profile,
        files,
      });
      expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
    }
  });

  it('renames a sibling support file that collides with another and rewrites the link to it', () => {
    const plan = planConsolidation({ skills: deployFamily(), now }).plans[0]!;
    expect(written(plan.changes, 'skills/deploy/references/api.md')).toContain('Production API');
    expect(written(plan.changes, 'skills/deploy/references/deploy-staging-api.md')).toContain('Staging API');
    expect(written(plan.changes, 'skills/deploy/SKILL.md')).toContain('[api notes](references/deploy-staging-api.md)');
  });

  it('merges into an existing member whose name is the prefix, editing only its fields and appending sections', () => {
    const umbrella = curated('deploy', '# Deploy\n\nHow we deploy the web service to servers.\n', { extra: 'version: 1.2.0 # keep me\n' });
    const { plans } = planConsolidation({ skills: [umbrella, ...deployFamily()], now });
    const plan = plans[0]!;
    expect(plan).toMatchObject({ kind: 'merge', into: 'deploy', from: ['deploy-canary', 'deploy-production', 'deploy-staging'] });
    const text = written(plan.changes, 'skills/deploy/SKILL.md');
    expect(text).toContain('version: 1.2.0 # keep me\n');
    expect(text).toContain('# Deploy\n\nHow we deploy the web service to servers.\n');
    expect(parseSkill(text, { file: 'x' }).fields.metadata).toEqual({ absorbed: 'deploy-canary, deploy-production, deploy-staging' });
    expect(plan.archived.map((a) => a.name)).not.toContain('deploy');
  });

  it("points the umbrella's own notes at the sections that replaced the siblings they linked to", () => {
    const umbrella = curated('deploy', '# Deploy\n\nHow we deploy the web service to servers.\n', {
      files: [{ path: 'references/index.md', content: '# Index\n\n- [canary](../../deploy-canary/SKILL.md)\n' }],
    });
    const plan = planConsolidation({ skills: [umbrella, ...deployFamily()], now }).plans[0]!;
    expect(written(plan.changes, 'skills/deploy/references/index.md')).toBe('# Index\n\n- [canary](../SKILL.md#canary-deploy)\n');
  });

  it("never touches a pinned or a person's skill that mentions a merged name: it is listed for a person to fix", () => {
    const pinned = curated('release-notes', 'Run deploy-staging first.\n', { pinned: true, description: 'Writes release notes.' });
    const persons = curated('runbook', 'Then deploy-canary.\n', { provenance: 'user', description: 'The on-call runbook.' });
    const plan = planConsolidation({ skills: [...deployFamily(), pinned, persons], now }).plans[0]!;
    expect(plan.mentionsLeft).toEqual(['skills/release-notes/SKILL.md', 'skills/runbook/SKILL.md']);
    expect(plan.rewritten).toEqual([]);
    expect(plan.changes.some((c) => c.path.startsWith('skills/release-notes/') || c.path.startsWith('skills/runbook/'))).toBe(false);
  });

  it('demotes a long member body to references/<member>.md behind a short linked section', () => {
    const long = Array.from({ length: 60 }, (_, i) => `Step ${i}: deploy the web service release to server ${i}.`).join('\n\n');
    const skills = [...deployFamily(), curated('deploy-rollout', `# Rollout\n\n${long}\n`)];
    const plan = planConsolidation({ skills, now, config: { demote_min_lines: 40 } }).plans[0]!;
    expect(plan.demoted).toEqual(['deploy-rollout']);
    expect(written(plan.changes, 'skills/deploy/references/deploy-rollout.md')).toContain('Step 59: deploy');
    expect(written(plan.changes, 'skills/deploy/SKILL.md')).toContain('[references/deploy-rollout.md](references/deploy-rollout.md)');
    expect(written(plan.changes, 'skills/deploy/SKILL.md')).not.toContain('Step 59');
  });

  it('rewrites references to merged names elsewhere: other skills, their links, and reference files, as whole words', () => {
    const other = curated(
      'release-notes',
      'Before, run deploy-staging (not deploy-staging-extra). See [staging](../deploy-staging/SKILL.md) and [api](../deploy-staging/references/api.md).\n',
      { description: 'Writes release notes.' },
    );
    const job = {
      path: 'jobs/nightly.yaml',
      text: 'skill: deploy-staging\nrun: skills/deploy-staging/references/api.md\nother: deploy-stagingx\n',
    };
    const plan = planConsolidation({ skills: [...deployFamily(), other], references: [job], now }).plans[0]!;
    expect(plan.rewritten).toEqual(['jobs/nightly.yaml', 'skills/release-notes/SKILL.md']);
    expect(written(plan.changes, 'jobs/nightly.yaml')).toBe(
      'skill: deploy\nrun: skills/deploy/references/deploy-staging-api.md\nother: deploy-stagingx\n',
    );
    const notes = written(plan.changes, 'skills/release-notes/SKILL.md');
    expect(notes).toContain('run deploy (not deploy-staging-extra)');
    expect(notes).toContain('[staging](../deploy/SKILL.md#deploy-to-staging)');
    expect(notes).toContain('[api](../deploy/references/deploy-staging-api.md)');
  });
});

describe('planConsolidation across categories', () => {
  it("puts the umbrella in the members' category, or at the root when they differ; archives keep each category", () => {
    const same = deployFamily().map((s) => ({ ...s, category: 'ops', dir: s.dir.replace('skills/', 'skills/ops/') }));
    expect(planConsolidation({ skills: same, now }).plans[0]).toMatchObject({
      intoDir: 'skills/ops/deploy',
      archived: expect.arrayContaining([expect.objectContaining({ to: 'skills/.archive/ops/deploy-canary' })]),
    });
    const mixed = deployFamily().map((s, i) => (i === 0 ? { ...s, category: 'web', dir: s.dir.replace('skills/', 'skills/web/') } : s));
    const { plans, dropped } = planConsolidation({ skills: mixed, now });
    expect(dropped).toEqual([]);
    expect(plans[0]).toMatchObject({
      intoDir: 'skills/deploy',
      archived: expect.arrayContaining([
        expect.objectContaining({ from: 'skills/web/deploy-staging', to: 'skills/.archive/web/deploy-staging' }),
      ]),
    });
  });
});

describe('planConsolidation on bad input', () => {
  it('leaves out two skills with the same name in different categories, and says how to fix it', () => {
    const skills = [...deployFamily(), curated('deploy-canary', '# Canary\n\nDeploy the web service canary.\n', { category: 'ops' })];
    const { plans, skipped } = planConsolidation({ skills, now });
    expect(skipped).toEqual([{ names: ['deploy-canary'], reason: expect.stringContaining('rename all but one') }]);
    expect(plans[0]?.from).toEqual(['deploy-production', 'deploy-staging']);
  });

  it('follows a cycle of cross-links between members to sections of the umbrella', () => {
    const skills = [
      curated('deploy-blue', '# Blue\n\nDeploy the web service to the blue servers; then see [green](../deploy-green/SKILL.md).\n'),
      curated('deploy-green', '# Green\n\nDeploy the web service to the green servers; then see [blue](../deploy-blue/SKILL.md).\n'),
    ];
    const { plans, dropped } = planConsolidation({ skills, now });
    expect(dropped).toEqual([]);
    const text = written(plans[0]!.changes, 'skills/deploy/SKILL.md');
    expect(text).toContain('[green](#green)');
    expect(text).toContain('[blue](#blue)');
  });

  it('leaves out a member that links outside the skills folder; the rest still merge', () => {
    const skills = [
      ...deployFamily(),
      curated('deploy-secrets', '# Secrets\n\nDeploy the web service secrets from [the vault](../../ops/vault.md).\n'),
    ];
    const { plans, skipped } = planConsolidation({ skills, now });
    expect(skipped).toEqual([
      { names: ['deploy-secrets'], reason: expect.stringContaining('links outside the skills folder (../../ops/vault.md)') },
    ]);
    expect(plans[0]?.from).not.toContain('deploy-secrets');
  });

  it('keeps a merged description within 1024 characters, cut at a word boundary', () => {
    const wordy = 'Deploys the web service to servers with many careful words about every single step of it '.repeat(12);
    const skills = Array.from({ length: 8 }, (_, i) =>
      curated(`deploy-zone${i}`, `# Zone ${i}\n\nDeploy the web service to zone ${i} servers.\n`, { description: wordy.trim() }),
    );
    const plan = planConsolidation({ skills, now }).plans[0]!;
    const description = String(parseSkill(written(plan.changes, 'skills/deploy/SKILL.md'), { file: 'x' }).fields.description);
    expect([...description].length).toBeLessThanOrEqual(1024);
    expect(description).toMatch(/(\w|\.|…)$/);
    // One sentence per facet, said once however many members say it; no member's name stands in for what it does.
    expect([...description].length).toBeLessThan(300);
    expect(description).not.toMatch(/deploy-zone\d/);
  });

  it('keeps a pinned member out of its cluster; the rest may still merge', () => {
    const skills = deployFamily().map((s) => (s.name === 'deploy-canary' ? { ...s, pinned: true } : s));
    const { plans } = planConsolidation({ skills, now });
    expect(plans[0]?.from).toEqual(['deploy-production', 'deploy-staging']);
    expect(plans[0]?.changes.some((c) => c.path.startsWith('skills/deploy-canary/'))).toBe(false);
  });

  it.each([
    ['bundled', { provenance: 'bundled' as const }],
    ['from a hub', { provenance: 'hub' as const }],
    ["a person's", { provenance: 'user' as const }],
    ['protected', { protected: true }],
  ])('never absorbs a skill that is %s', (_, override) => {
    const skills = deployFamily().map((s) => (s.name === 'deploy-canary' ? { ...s, ...override } : s));
    expect(planConsolidation({ skills, now }).plans[0]?.from).toEqual(['deploy-production', 'deploy-staging']);
  });

  it("absorbs a person's skill once it is adopted", () => {
    const skills = deployFamily().map((s) => (s.name === 'deploy-canary' ? { ...s, provenance: 'user' as const, adopted: true } : s));
    expect(planConsolidation({ skills, now }).plans[0]?.from).toContain('deploy-canary');
  });

  it('does not overwrite an existing archive: the new one gets a time suffix', () => {
    const plan = planConsolidation({ skills: deployFamily(), now, archiveDirs: ['skills/.archive/deploy-canary'] }).plans[0]!;
    expect(plan.archived.find((a) => a.name === 'deploy-canary')?.to).toBe('skills/.archive/deploy-canary-20261130T000000Z');
  });

  it('does not name a new umbrella after a skill outside the cluster', () => {
    const pinnedDeploy = curated('deploy', '# Deploy\n\nPinned by a person.\n', { pinned: true });
    const plan = planConsolidation({ skills: [pinnedDeploy, ...deployFamily()], now }).plans[0]!;
    // Named for what every member is about: a bare `deploy` would claim the pinned skill's ground too.
    expect(plan.into).toBe('deploy-web-service');
    expect(plan.changes.some((c) => c.path.startsWith('skills/deploy/'))).toBe(false);
    // The telling name taken as well: the prefix's overview.
    const pinnedService = curated('deploy-web-service', '# Web service\n\nPinned by a person.\n', { pinned: true });
    const next = planConsolidation({ skills: [pinnedDeploy, pinnedService, ...deployFamily()], now }).plans[0]!;
    expect(next.into).toBe('deploy-overview');
  });
});
