import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseOtlpSkillEvents } from '../../src/core/usage/otel-events.js';
import { cli } from '../helpers/cli.js';
import { git, lastTrailers, repoWith } from '../helpers/repo.js';
import { skillText } from '../helpers/tmp.js';

const fixture = join(import.meta.dirname, '..', 'fixtures', 'otel', 'claude-code-logs.jsonl');

describe('usage import (Claude Code OpenTelemetry skill_activated events)', () => {
  it('reads activations from an OTLP JSON export, with session and time, and accounts for what it cannot read', () => {
    const parsed = parseOtlpSkillEvents(readFileSync(fixture, 'utf8'));
    expect(parsed.activations).toEqual([
      { skill: 'deploy', at: '2026-11-20T10:00:00Z', session: 'sess-a' },
      { skill: 'deploy', at: '2026-11-20T10:05:00Z', session: 'sess-a' },
      { skill: 'review', at: '2026-11-21T09:00:00Z', session: 'sess-b' },
    ]);
    expect(parsed.otherEvents).toBe(1);
    expect(parsed.problems.map((p) => p.line)).toEqual([2, 3]);
    expect(parsed.problems[1]?.reason).toMatch(/not JSON/);
  });

  it('counts them as uses in one usage commit, merged with other writers; importing twice counts once', async () => {
    const repo = repoWith({
      'skills/deploy/SKILL.md': skillText('deploy'),
      'skills/review/SKILL.md': skillText('review'),
      '.skillgarden/usage/laptop.json': JSON.stringify({
        version: 1,
        writer: 'laptop',
        skills: { deploy: { use_count: 2, last_used_at: '2026-11-25T00:00:00Z' } },
      }),
    });
    const first = await cli(['--json', 'usage', 'import', fixture], { cwd: repo });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ writer: 'claude-code-otel', imported: 3, sessions: 2, alreadyCounted: 0 });
    expect(lastTrailers(repo)).toContain('Skill-Action: usage');
    expect(git(repo, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('.skillgarden/usage/claude-code-otel.json');
    const file = JSON.parse(readFileSync(join(repo, '.skillgarden/usage/claude-code-otel.json'), 'utf8')) as {
      skills: Record<string, { use_count: number; last_used_at: string }>;
    };
    expect(file.skills.deploy).toMatchObject({ use_count: 2, last_used_at: '2026-11-20T10:05:00Z' });
    expect(file.skills.review).toMatchObject({ use_count: 1, last_used_at: '2026-11-21T09:00:00Z' });

    const shown = JSON.parse((await cli(['--json', 'usage', 'show'], { cwd: repo })).stdout) as {
      totals: Record<string, { use_count: number; last_used_at: string }>;
    };
    expect(shown.totals.deploy).toMatchObject({ use_count: 4, last_used_at: '2026-11-25T00:00:00Z' });

    const again = await cli(['--json', 'usage', 'import', fixture], { cwd: repo });
    expect(JSON.parse(again.stdout)).toMatchObject({ imported: 0, alreadyCounted: 3 });
    expect(git(repo, 'log', '--format=%s').trim().split('\n')).toHaveLength(2);
  });

  it('refuses a file that is not an OTLP export', async () => {
    const repo = repoWith({ 'skills/deploy/SKILL.md': skillText('deploy') });
    const run = await cli(['usage', 'import', join(import.meta.dirname, '..', 'fixtures', 'sarif', 'README.md')], { cwd: repo });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/expected an OTLP JSON logs export/);
  });
});
