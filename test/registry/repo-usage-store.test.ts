import { describe, expect, it } from 'vitest';
import { SkillRegistry } from '../../src/registry/index.js';
import { createRepoUsageStore } from '../../src/registry/repo-usage-store.js';
import { repoWith } from '../helpers/repo.js';
import { skillText } from '../helpers/tmp.js';

const now = new Date('2026-11-30T00:00:00Z');

describe('createRepoUsageStore', () => {
  it('adds committed totals and this writer’s pending bumps, so a new registry remembers uses', async () => {
    const repo = repoWith({
      'skills/a/SKILL.md': skillText('a'),
      'skills/b/SKILL.md': skillText('b'),
      '.skillgarden/usage/other.json': JSON.stringify({
        version: 1,
        writer: 'other',
        skills: { a: { use_count: 2, last_used_at: '2026-11-29T00:00:00Z' } },
      }),
    });
    const options = { repoDir: repo, skillsDir: 'skills', writer: 'me', now: () => now };
    const first = await SkillRegistry.open({ repoDir: repo, usage: createRepoUsageStore(options), now: () => now });
    expect(first.usageOf('a')).toMatchObject({ use_count: 2 });
    expect(await first.recordUsage('b', 'use')).toBe(true);
    expect(await first.recordUsage('b', 'use')).toBe(true);
    expect(await first.recordUsage('a', 'view')).toBe(true);

    const second = await SkillRegistry.open({ repoDir: repo, usage: createRepoUsageStore(options), now: () => now });
    expect(second.usageOf('b')).toMatchObject({ use_count: 2, last_used_at: now.toISOString() });
    expect(second.usageOf('a')).toMatchObject({ use_count: 2, view_count: 1 });
    expect(second.list().map((e) => e.name)).toEqual(['b', 'a']);
  });

  it('a failing store never breaks a use: the registry still counts it', async () => {
    const repo = repoWith({ 'skills/a/SKILL.md': skillText('a') });
    const registry = await SkillRegistry.open({
      repoDir: repo,
      now: () => now,
      usage: { totals: async () => new Map(), record: async () => Promise.reject(new Error('disk full')) },
    });
    expect(await registry.recordUsage('a', 'use')).toBe(false);
    expect(registry.usageOf('a')).toMatchObject({ use_count: 1 });
  });
});
