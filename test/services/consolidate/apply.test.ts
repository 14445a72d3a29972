import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openLedger } from '../../../src/ledger/open-ledger.js';
import { applyPlan, planLibrary } from '../../../src/services/consolidate/index.js';
import { git, lastTrailers, repoWith, status } from '../../helpers/repo.js';

const now = new Date('2026-11-30T00:00:00Z');

function skillFile(name: string, body: string, extra = ''): string {
  return `---\nname: ${name}\ndescription: Deploy notes for ${name}. Use when deploying the web service.\n${extra}---\n${body}`;
}

/** `jobs` is where the reference files live: outside the skills root by default, as scheduled jobs usually are. */
function deployRepo(jobs = 'jobs'): string {
  return repoWith({
    'skills/deploy-staging/SKILL.md': skillFile(
      'deploy-staging',
      '# Staging\n\nDeploy the web service to staging servers; see [api](references/api.md).\n',
    ),
    'skills/deploy-staging/references/api.md': '# Staging API\n\nrelease ids\n',
    'skills/deploy-production/SKILL.md': skillFile(
      'deploy-production',
      '# Production\n\nDeploy the web service to production servers after approval.\n',
    ),
    'skills/deploy-production/references/api.md': '# Production API\n\ntwo approvals\n',
    'skills/deploy-production/scripts/rollback.sh': '#!/bin/sh\necho rollback\n',
    'skills/release-notes/SKILL.md': skillFile('release-notes', 'Run deploy-staging first.\n'),
    [`${jobs}/nightly.yaml`]: 'skill: deploy-staging\n',
    '.skillgarden/adopted.txt': 'deploy-production\ndeploy-staging\nrelease-notes\n',
    '.skillgarden/config.yaml': `references:\n  - "${jobs}/**"\n`,
  });
}

const tree = (dir: string) => git(dir, 'rev-parse', 'HEAD^{tree}').trim();

describe('applyPlan', () => {
  it('writes the whole plan as one merge commit with curator trailers, umbrella first', async () => {
    const dir = deployRepo();
    const { result } = await planLibrary(dir, { now });
    expect(result.dropped).toEqual([]);
    const plan = result.plans[0]!;
    const ledger = await openLedger(dir, { now: () => now });
    try {
      const applied = await applyPlan(ledger, plan, { runId: '2026-11-30T00-00-00Z-test' });
      expect(git(dir, 'rev-list', '--count', 'HEAD').trim()).toBe('2');
      expect(applied.commit).toBe(git(dir, 'rev-parse', 'HEAD').trim());
      expect(lastTrailers(dir)).toEqual([
        'Skill-Action: merge',
        'Skill-Name: deploy',
        'Skill-Name: deploy-production',
        'Skill-Name: deploy-staging',
        'Skill-Actor: curator',
        'Curator-Run: 2026-11-30T00-00-00Z-test',
      ]);
      expect(status(dir)).toBe('');
      expect(existsSync(join(dir, 'skills/deploy-staging'))).toBe(false);
      expect(readFileSync(join(dir, 'skills/.archive/deploy-production/scripts/rollback.sh'), 'utf8')).toBe('#!/bin/sh\necho rollback\n');
      expect(readFileSync(join(dir, 'skills/deploy/references/deploy-staging-api.md'), 'utf8')).toContain('release ids');
      expect(readFileSync(join(dir, 'jobs/nightly.yaml'), 'utf8')).toBe('skill: deploy\n');
      expect(readFileSync(join(dir, 'skills/release-notes/SKILL.md'), 'utf8')).toContain('Run deploy first.');
    } finally {
      await ledger.close();
    }
  });

  it('is undone by one rollback of its commit', async () => {
    const dir = deployRepo('.skillgarden/jobs');
    const before = tree(dir);
    const plan = (await planLibrary(dir, { now })).result.plans[0]!;
    const ledger = await openLedger(dir, { now: () => now });
    try {
      const { commit } = await applyPlan(ledger, plan, { runId: 'r1' });
      expect(await ledger.rollback({ commit })).toMatchObject({ status: 'reverted' });
      expect(tree(dir)).toBe(before);
      expect(status(dir)).toBe('');
    } finally {
      await ledger.close();
    }
  });

  it('touches a reference file outside the skills root: rollback undoes it when the references globs allow it, and refuses otherwise', async () => {
    const dir = deployRepo();
    const before = tree(dir);
    const plan = (await planLibrary(dir, { now })).result.plans[0]!;
    expect(plan.rewritten).toContain('jobs/nightly.yaml');
    const ledger = await openLedger(dir, { now: () => now });
    try {
      const { commit } = await applyPlan(ledger, plan, { runId: 'r1' });
      await expect(ledger.rollback({ commit })).rejects.toMatchObject({
        code: 'ledger/rollback-refused',
        data: { paths: ['jobs/nightly.yaml'] },
      });
      const referenced = (path: string) => path.startsWith('jobs/');
      expect(await ledger.rollback({ commit }, { allowPath: referenced })).toMatchObject({ status: 'reverted' });
      expect(tree(dir)).toBe(before);
      expect(status(dir)).toBe('');
    } finally {
      await ledger.close();
    }
  });

  it('refuses to overwrite an archive that appeared after planning', async () => {
    const dir = deployRepo();
    const plan = (await planLibrary(dir, { now })).result.plans[0]!;
    mkdirSync(join(dir, 'skills/.archive'), { recursive: true });
    git(dir, 'mv', 'skills/deploy-staging', 'skills/.archive/deploy-staging');
    git(dir, 'commit', '-qm', 'a person archived it meanwhile');
    const ledger = await openLedger(dir, { now: () => now });
    try {
      await expect(applyPlan(ledger, plan, { runId: 'r1' })).rejects.toMatchObject({ code: expect.stringMatching(/^ledger\//) });
    } finally {
      await ledger.close();
    }
  });
});

const word = fc.constantFrom('deploy', 'service', 'release', 'server', 'rollout', 'check', 'logs', 'canary', 'health');
const member = fc.record({
  suffix: fc.constantFrom('alpha', 'beta', 'gamma', 'delta'),
  words: fc.array(word, { minLength: 6, maxLength: 12 }),
  support: fc.subarray(['references/api.md', 'scripts/run.sh', 'assets/logo.bin']),
  linkSibling: fc.boolean(),
});

describe('applyPlan then rollback', () => {
  it('restores the tree exactly, for any generated library', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(member, { minLength: 2, maxLength: 4, selector: (m) => m.suffix }),
        fc.boolean(),
        async (members, withJob) => {
          const files: Record<string, string | Uint8Array> = {
            '.skillgarden/adopted.txt': `${members.map((m) => `ops-${m.suffix}`).join('\n')}\n`,
          };
          members.forEach((m, i) => {
            const sibling = members[(i + 1) % members.length]!.suffix;
            const link = m.linkSibling ? ` See [next](../ops-${sibling}/SKILL.md).` : '';
            files[`skills/ops-${m.suffix}/SKILL.md`] = skillFile(
              `ops-${m.suffix}`,
              `# Ops ${m.suffix}\n\nOps deploy ${m.words.join(' ')}.${link}\n`,
            );
            for (const path of m.support)
              files[`skills/ops-${m.suffix}/${path}`] = path.endsWith('.bin') ? new Uint8Array([0, 1, 2, i]) : `# ${path}\n\n${m.suffix}\n`;
          });
          if (withJob) {
            files['.skillgarden/jobs/cron.yaml'] = `run: ops-${members[0]!.suffix}\n`;
            files['.skillgarden/config.yaml'] = 'references: [".skillgarden/jobs/**"]\n';
          }
          const dir = repoWith(files);
          const before = tree(dir);
          const { result } = await planLibrary(dir, { now });
          expect(result.dropped).toEqual([]);
          expect(result.plans.length).toBeGreaterThan(0);
          const ledger = await openLedger(dir, { now: () => now });
          try {
            for (const plan of result.plans) {
              const { commit } = await applyPlan(ledger, plan, { runId: 'prop' });
              expect(tree(dir)).not.toBe(before);
              await ledger.rollback({ commit });
              expect(tree(dir)).toBe(before);
              expect(status(dir)).toBe('');
            }
          } finally {
            await ledger.close();
          }
        },
      ),
      { numRuns: 8 },
    );
  });
});
