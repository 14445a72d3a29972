import { describe, expect, it } from 'vitest';
import { runCurate, type ProposalRef } from '../../../src/services/curator/curate.js';
import { git, repoWith } from '../../helpers/repo.js';
import { createAgentSkills } from '../../helpers/agent-skills.js';

const day = 86_400_000;
const now = new Date('2026-11-30T00:00:00Z');

const deployText = (name: string, topic: string) =>
  `---\nname: ${name}\ndescription: Deploy ${topic} notes for the web service. Use when deploying to ${topic}.\n---\n# Deploy to ${topic}\n\nDeploy the web service to ${topic} servers and watch the release.\n`;

/** Three near-duplicate deploy skills and one other, all an agent's, 45 days unused: each due stale, three in one umbrella. */
async function library(): Promise<string> {
  const dir = repoWith({ 'README.md': 'notes\n' });
  const deploys = Object.fromEntries(['staging', 'production', 'canary'].map((t) => [`deploy-${t}`, deployText(`deploy-${t}`, t)]));
  await createAgentSkills(
    dir,
    {
      ...deploys,
      'tidy-imports':
        '---\nname: tidy-imports\ndescription: Sort the imports of a Python module. Use when imports are messy.\n---\n# tidy-imports\n\nSort them.\n',
    },
    new Date(now.getTime() - 45 * day),
  );
  return dir;
}

describe('runCurate: the one curate workflow of the CLI and the Action', () => {
  it('asks for declines only about the umbrellas holding a transition back, and a declined one holds nothing back', async () => {
    const dir = await library();
    const asked: ProposalRef[][] = [];
    const none = await runCurate({
      repoDir: dir,
      now,
      dryRun: true,
      consolidate: true,
      labels: ['bot'],
      readDeclined: async (refs) => (asked.push([...refs]), new Set()),
    });
    const umbrella = none.proposals.find((p) => p.kind === 'umbrella');
    expect(umbrella).toBeDefined();
    expect(asked).toEqual([[{ branch: umbrella?.branch, fingerprint: umbrella?.fingerprint }]]);
    expect(none.report.transitions.map((t) => t.skill)).toEqual(['tidy-imports']);
    expect(none.deferred.map((d) => d.skill).sort()).toEqual(['deploy-canary', 'deploy-production', 'deploy-staging']);
    expect(umbrella?.reasons.filter((r) => r.includes('the lifecycle proposal leaves it to this one'))).toHaveLength(3);
    expect(none.proposals.every((p) => p.labels.includes('bot'))).toBe(true);
    expect(none.withdraw).toEqual(['umbrella']);
    expect(none.files.files.map((f) => f.path)).toEqual(['run.json', 'REPORT.md']);

    const declined = await runCurate({
      repoDir: dir,
      now,
      dryRun: true,
      consolidate: true,
      readDeclined: async (refs) => new Set(refs.map((r) => r.fingerprint)),
    });
    expect(declined.deferred).toEqual([]);
    expect(declined.report.transitions.map((t) => t.skill).sort()).toEqual([
      'deploy-canary',
      'deploy-production',
      'deploy-staging',
      'tidy-imports',
    ]);
    // A dry run writes nothing: no commit, no tag, no proposal branch.
    expect(git(dir, 'tag', '--list').trim()).toBe('');
    expect(git(dir, 'branch', '--list', 'skillgarden/*').trim()).toBe('');
  });

  it('commits a real run with its tag, and says which tag to push', async () => {
    const dir = await library();
    const run = await runCurate({ repoDir: dir, now, readDeclined: async () => new Set() });
    expect(run.tag).toBe(`skillgarden/run/${run.report.run_id}`);
    expect(git(dir, 'tag', '--list').trim()).toBe(run.tag);
    expect(run.report.commits.length).toBeGreaterThan(0);
  });
});
