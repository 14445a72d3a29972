import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { createAgentSkills } from '../helpers/agent-skills.js';
import { git as rawGit, repoWith } from '../helpers/repo.js';

const git = (dir: string, ...args: string[]) => rawGit(dir, ...args).trim();

const now = '2026-11-30T00:00:00Z';

function skillText(name: string, topic: string): string {
  return `---\nname: ${name}\ndescription: Deploy ${topic} notes for the web service. Use when deploying to ${topic}.\n---\n# Deploy to ${topic}\n\nDeploy the web service to ${topic} servers and watch the release.\n`;
}

/** A repository with three deploy notes the agent wrote in the background, and a person's unrelated edit in the worktree. */
async function library(): Promise<string> {
  const dir = repoWith({ 'README.md': 'notes\n' });
  const deploys = ['staging', 'production', 'canary'].map((t) => [`deploy-${t}`, skillText(`deploy-${t}`, t)]);
  await createAgentSkills(dir, Object.fromEntries(deploys), new Date(now));
  return dir;
}

const run = (dir: string, ...argv: string[]) => cli(['--now', now, '--repo', dir, ...argv], { cwd: dir });

describe('proposals without GitHub', () => {
  it('plan --apply writes each plan as one commit on its branch, leaving the branch, index and worktree untouched', async () => {
    const dir = await library();
    const head = git(dir, 'rev-parse', 'HEAD');
    const branch = git(dir, 'symbolic-ref', '--short', 'HEAD');
    // A person's uncommitted edit must survive.
    writeFileSync(join(dir, 'README.md'), 'my edit\n');
    const applied = await run(dir, 'plan', '--apply', '--json');
    expect(applied.code).toBe(0);
    const report = JSON.parse(applied.stdout) as { proposals: Array<{ branch: string; operation: string }> };
    expect(report.proposals).toEqual([expect.objectContaining({ branch: 'skillgarden/umbrella/deploy', operation: 'created' })]);
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(dir, 'symbolic-ref', '--short', 'HEAD')).toBe(branch);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe('my edit\n');
    expect(git(dir, 'status', '--porcelain')).toBe('M README.md');
    expect(git(dir, 'rev-list', '--count', `${head}..skillgarden/umbrella/deploy`)).toBe('1');
    expect(git(dir, 'show', 'skillgarden/umbrella/deploy:skills/deploy/SKILL.md')).toContain('Use when deploying to');
    expect(git(dir, 'log', '-1', '--format=%(trailers:key=Skill-Action,valueonly)', 'skillgarden/umbrella/deploy')).toBe('merge');

    const again = JSON.parse((await run(dir, 'plan', '--apply', '--json')).stdout) as typeof report;
    expect(again.proposals[0]?.operation).toBe('unchanged');

    const listed = JSON.parse((await run(dir, 'proposals', '--json')).stdout) as { proposals: Array<{ branch: string; state: string }> };
    expect(listed.proposals).toEqual([expect.objectContaining({ branch: 'skillgarden/umbrella/deploy', state: 'open' })]);
  });

  it('remembers a decline (by command or by deleting the branch) and does not propose it again', async () => {
    const dir = await library();
    await run(dir, 'plan', '--apply');
    const declined = await run(dir, 'proposals', 'decline', 'umbrella/deploy');
    expect(declined.stdout).toContain('declined skillgarden/umbrella/deploy');
    expect(git(dir, 'branch', '--list', 'skillgarden/*')).toBe('');
    const again = JSON.parse((await run(dir, 'plan', '--apply', '--json')).stdout) as { proposals: Array<{ operation: string }> };
    expect(again.proposals[0]?.operation).toBe('declined');
    expect(git(dir, 'branch', '--list', 'skillgarden/*')).toBe('');

    const other = await library();
    await run(other, 'plan', '--apply');
    git(other, 'branch', '-D', 'skillgarden/umbrella/deploy');
    const listed = JSON.parse((await run(other, 'proposals', '--json')).stdout) as { proposals: Array<{ state: string }> };
    expect(listed.proposals[0]?.state).toBe('declined');
    const retry = JSON.parse((await run(other, 'plan', '--apply', '--json')).stdout) as { proposals: Array<{ operation: string }> };
    expect(retry.proposals[0]?.operation).toBe('declined');
  });

  it('withdraws an umbrella the library no longer supports, and that is no decline', async () => {
    const dir = await library();
    await run(dir, 'plan', '--apply');
    // A person pins two of the three notes: nothing is left to merge.
    for (const name of ['deploy-canary', 'deploy-staging']) expect((await run(dir, 'pin', name)).code).toBe(0);
    const withdrawn = JSON.parse((await run(dir, 'plan', '--apply', '--json')).stdout) as {
      proposals: Array<{ branch: string; operation: string }>;
    };
    expect(withdrawn.proposals).toEqual([expect.objectContaining({ branch: 'skillgarden/umbrella/deploy', operation: 'withdrawn' })]);
    expect(git(dir, 'branch', '--list', 'skillgarden/*')).toBe('');
    const listed = JSON.parse((await run(dir, 'proposals', '--json')).stdout) as { proposals: unknown[] };
    expect(listed.proposals).toEqual([]);
    // Unpinned again: proposed again, as new.
    for (const name of ['deploy-canary', 'deploy-staging']) expect((await run(dir, 'unpin', name)).code).toBe(0);
    const again = JSON.parse((await run(dir, 'plan', '--apply', '--json')).stdout) as typeof withdrawn;
    expect(again.proposals).toEqual([expect.objectContaining({ branch: 'skillgarden/umbrella/deploy', operation: 'created' })]);
  });

  it('counts a merged branch as accepted', async () => {
    const dir = await library();
    await run(dir, 'plan', '--apply');
    git(dir, 'merge', '--no-edit', '--no-ff', 'skillgarden/umbrella/deploy');
    const listed = JSON.parse((await run(dir, 'proposals', '--json')).stdout) as { proposals: Array<{ state: string }> };
    expect(listed.proposals[0]?.state).toBe('accepted');
    expect((await run(dir, 'proposals', 'decline', 'deploy')).code).toBe(2);
  });
});
