import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import runReportSchema from '../../schemas/run-report.schema.json' with { type: 'json' };
import { recordPath } from '../../src/core/config/state-files.js';
import { cli } from '../helpers/cli.js';
import { createAgentSkills } from '../helpers/agent-skills.js';
import { git as rawGit, repoWith } from '../helpers/repo.js';

const git = (dir: string, ...args: string[]) => rawGit(dir, ...args).trim();
const validateReport = new Ajv2020({ strict: false, validateFormats: false }).compile(runReportSchema);
const day = 86_400_000;
const now = new Date('2026-11-30T00:00:00Z');

function deployText(name: string, topic: string): string {
  return `---\nname: ${name}\ndescription: Deploy ${topic} notes for the web service. Use when deploying to ${topic}.\n---\n# Deploy to ${topic}\n\nDeploy the web service to ${topic} servers and watch the release.\n`;
}

function otherText(name: string, what: string): string {
  return `---\nname: ${name}\ndescription: ${what}. Use when you need to ${what.toLowerCase()}.\n---\n# ${name}\n\n${what} with care; nothing else.\n`;
}

/** Skills an agent wrote in the background `daysAgo` days before `now`, and a person's edit left in the worktree. */
async function library(skills: Array<{ name: string; text: string; daysAgo: number }>): Promise<string> {
  const dir = repoWith({ 'README.md': 'notes\n' });
  for (const skill of skills) await createAgentSkills(dir, { [skill.name]: skill.text }, new Date(now.getTime() - skill.daysAgo * day));
  return dir;
}

/** A skill's record on the lifecycle branch (`.skillgarden/state/<shard>/<skill>.json`); undefined when it has none. */
function record(dir: string, name: string): { state?: string } | undefined {
  const path = recordPath(name);
  const listed = git(dir, 'ls-tree', '--name-only', 'skillgarden/lifecycle', path);
  return listed === '' ? undefined : (JSON.parse(git(dir, 'show', `skillgarden/lifecycle:${path}`)) as { state?: string });
}

const run = (dir: string, at: Date, ...argv: string[]) => cli(['--now', at.toISOString(), '--repo', dir, ...argv], { cwd: dir });

interface Written {
  branch: string;
  operation: string;
}

async function propose(dir: string, at: Date, ...extra: string[]) {
  const result = await run(dir, at, 'curate', '--propose', '--json', ...extra);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as {
    transitions: Array<{ skill: string; to: string; commit: string | null }>;
    skipped: Array<{ skill: string; reason: string; detail: string }>;
    commits: string[];
    proposals?: Written[];
  };
}

describe('curate --propose: the lifecycle as the proposal branch skillgarden/lifecycle', () => {
  it('writes the transitions as one commit on skillgarden/lifecycle, the current branch, index and worktree untouched', async () => {
    const dir = await library([
      { name: 'tidy-imports', text: otherText('tidy-imports', 'Sort the imports of a Python module'), daysAgo: 45 },
      { name: 'fresh-notes', text: otherText('fresh-notes', 'Write release notes from the changelog'), daysAgo: 2 },
    ]);
    writeFileSync(join(dir, 'README.md'), 'my edit\n');
    const head = git(dir, 'rev-parse', 'HEAD');
    const report = await propose(dir, now);
    expect(report.transitions.map((t) => [t.skill, t.to, t.commit])).toEqual([['tidy-imports', 'stale', null]]);
    expect(report.commits).toEqual([]);
    expect(report.proposals).toEqual([
      { branch: 'skillgarden/lifecycle', kind: 'lifecycle', name: 'lifecycle', operation: 'created', commit: expect.any(String) },
    ]);
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(dir, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
    expect(git(dir, 'status', '--porcelain')).toBe('M README.md');
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe('my edit\n');
    expect(git(dir, 'tag', '--list', 'skillgarden/run/*')).toBe('');
    expect(git(dir, 'rev-list', '--count', `${head}..skillgarden/lifecycle`)).toBe('1');
    expect(record(dir, 'tidy-imports')?.state).toBe('stale');
    expect(record(dir, 'fresh-notes')?.state).toBeUndefined();
    expect(git(dir, 'log', '-1', '--format=%s', 'skillgarden/lifecycle')).toBe('skill(curate): lifecycle — 1 marked stale');
    expect(git(dir, 'log', '-1', '--format=%(trailers:key=Skill-Action,valueonly)', 'skillgarden/lifecycle')).toBe('mark-stale');

    // The same transitions again: left as they are.
    expect((await propose(dir, now)).proposals?.[0]?.operation).toBe('unchanged');
    const listed = JSON.parse((await run(dir, now, 'proposals', '--json')).stdout) as {
      proposals: Array<{ branch: string; state: string }>;
    };
    expect(listed.proposals).toEqual([expect.objectContaining({ branch: 'skillgarden/lifecycle', state: 'open' })]);

    // Merging accepts it: the next run finds the skill stale already and proposes nothing, withdrawing nothing of a person's.
    git(dir, 'merge', '--no-edit', '--no-ff', 'skillgarden/lifecycle');
    const after = JSON.parse((await run(dir, now, 'proposals', '--json')).stdout) as typeof listed;
    expect(after.proposals[0]?.state).toBe('accepted');
    const next = await propose(dir, now);
    expect(next.transitions).toEqual([]);
  });

  it('proposals decline lifecycle is remembered: the same transitions are not proposed again until something changes', async () => {
    const dir = await library([
      { name: 'tidy-imports', text: otherText('tidy-imports', 'Sort the imports of a Python module'), daysAgo: 45 },
      { name: 'fresh-notes', text: otherText('fresh-notes', 'Write release notes from the changelog'), daysAgo: 10 },
    ]);
    await propose(dir, now);
    const declined = await run(dir, now, 'proposals', 'decline', 'lifecycle');
    expect(declined.code, declined.stderr).toBe(0);
    expect(git(dir, 'branch', '--list', 'skillgarden/*')).toBe('');
    expect((await propose(dir, now)).proposals).toEqual([
      expect.objectContaining({ branch: 'skillgarden/lifecycle', operation: 'declined' }),
    ]);
    expect(git(dir, 'branch', '--list', 'skillgarden/*')).toBe('');
    // Three weeks on, fresh-notes is due as well: a different proposal, written again.
    const later = new Date(now.getTime() + 21 * day);
    const changed = await propose(dir, later);
    expect(changed.transitions.map((t) => t.skill).sort()).toEqual(['fresh-notes', 'tidy-imports']);
    expect(changed.proposals).toEqual([expect.objectContaining({ branch: 'skillgarden/lifecycle', operation: 'created' })]);
  });

  it('withdraws its own open lifecycle branch when nothing is left to propose, and that is no decline', async () => {
    const dir = await library([
      { name: 'tidy-imports', text: otherText('tidy-imports', 'Sort the imports of a Python module'), daysAgo: 45 },
    ]);
    await propose(dir, now);
    // A person uses the skill: nothing is due any more.
    const bumped = await run(dir, now, 'usage', 'bump', 'tidy-imports', '--use', '--writer', 'laptop');
    expect(bumped.code, bumped.stderr).toBe(0);
    expect((await run(dir, now, 'usage', 'flush', '--writer', 'laptop')).code).toBe(0);
    const quiet = await propose(dir, now);
    expect(quiet.transitions).toEqual([]);
    expect(quiet.proposals).toEqual([expect.objectContaining({ branch: 'skillgarden/lifecycle', operation: 'withdrawn' })]);
    expect(git(dir, 'branch', '--list', 'skillgarden/*')).toBe('');
    const listed = JSON.parse((await run(dir, now, 'proposals', '--json')).stdout) as { proposals: unknown[] };
    expect(listed.proposals).toEqual([]);
    // Forty-five days of no use later it is due again, and proposed again.
    const again = await propose(dir, new Date(now.getTime() + 45 * day));
    expect(again.proposals).toEqual([expect.objectContaining({ branch: 'skillgarden/lifecycle', operation: 'created' })]);
  });

  it('leaves a skill that an umbrella proposal of the same run changes out of the lifecycle proposal, and says so', async () => {
    const dir = await library([
      ...['staging', 'production', 'canary'].map((t) => ({ name: `deploy-${t}`, text: deployText(`deploy-${t}`, t), daysAgo: 45 })),
      { name: 'tidy-imports', text: otherText('tidy-imports', 'Sort the imports of a Python module'), daysAgo: 45 },
    ]);
    const report = await propose(dir, now, '--consolidate', '--report-dir', 'out');
    const written = JSON.parse(readFileSync(join(dir, 'out', 'run.json'), 'utf8')) as unknown;
    expect(validateReport(written), JSON.stringify(validateReport.errors)).toBe(true);
    const umbrella = report.proposals?.find((p) => p.branch.startsWith('skillgarden/umbrella/'));
    expect(umbrella?.operation).toBe('created');
    expect(report.transitions.map((t) => t.skill)).toEqual(['tidy-imports']);
    expect(
      report.skipped
        .filter((s) => s.reason === 'in-umbrella-proposal')
        .map((s) => s.skill)
        .sort(),
    ).toEqual(['deploy-canary', 'deploy-production', 'deploy-staging']);
    const message = git(dir, 'log', '-1', '--format=%B', 'skillgarden/lifecycle');
    expect(message).toContain(`- deploy-canary: active -> stale waits for ${umbrella?.branch}`);
    expect(record(dir, 'deploy-canary')?.state).toBeUndefined();

    // Once a person declines the umbrella, the lifecycle looks at its members again.
    expect((await run(dir, now, 'proposals', 'decline', umbrella?.branch ?? '')).code).toBe(0);
    const next = await propose(dir, now, '--consolidate');
    expect(next.transitions.map((t) => t.skill).sort()).toEqual(['deploy-canary', 'deploy-production', 'deploy-staging', 'tidy-imports']);
    expect(next.proposals).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ branch: 'skillgarden/lifecycle', operation: 'updated' }),
        expect.objectContaining({ branch: umbrella?.branch, operation: 'declined' }),
      ]),
    );
  });

  it('a direct curate still commits on the working branch, holding back the members of its umbrella proposals too', async () => {
    const dir = await library([
      ...['staging', 'production', 'canary'].map((t) => ({ name: `deploy-${t}`, text: deployText(`deploy-${t}`, t), daysAgo: 45 })),
      { name: 'tidy-imports', text: otherText('tidy-imports', 'Sort the imports of a Python module'), daysAgo: 45 },
    ]);
    const head = git(dir, 'rev-parse', 'HEAD');
    const result = await run(dir, now, 'curate', '--consolidate', '--json');
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { transitions: Array<{ skill: string; commit: string }>; proposals: Written[] };
    expect(report.transitions.map((t) => t.skill)).toEqual(['tidy-imports']);
    expect(git(dir, 'rev-list', '--count', `${head}..HEAD`)).toBe('2');
    expect(report.proposals.map((p) => p.branch)).not.toContain('skillgarden/lifecycle');
  });
});
