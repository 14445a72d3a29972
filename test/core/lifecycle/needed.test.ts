import { describe, expect, it } from 'vitest';
import { planLifecycle, type LifecycleSkill } from '../../../src/core/lifecycle/index.js';

const now = new Date('2026-11-30T00:00:00Z');
const settings = { stale_after_days: 30, archive_after_days: 90, prune_bundled: false, protected: [] };
const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000).toISOString();
const skill = (name: string, created: number, extra: Partial<LifecycleSkill> = {}): LifecycleSkill => ({
  name,
  provenance: 'agent',
  pinned: false,
  referenced: false,
  createdAt: daysAgo(created),
  ...extra,
});

describe('the lifecycle keeps a skill sessions needed', () => {
  it.each([
    ['idle 45 days, no miss', skill('a', 45), { kind: 'transition', to: 'stale' }],
    ['idle 45 days, one miss', skill('a', 45, { missed: 1 }), { kind: 'skip', reason: 'needed' }],
    ['idle 120 days, stale, six misses', skill('a', 120, { missed: 6, record: { state: 'stale' } }), { kind: 'skip', reason: 'needed' }],
    ['idle 120 days, stale, no miss', skill('a', 120, { record: { state: 'stale' } }), { kind: 'transition', to: 'archived' }],
    ['created 10 days ago, a miss', skill('a', 10, { missed: 2 }), { kind: 'skip', reason: 'recent' }],
    ['pinned, a miss', skill('a', 45, { missed: 2, pinned: true }), { kind: 'skip', reason: 'pinned' }],
  ])('%s', (_, input, expected) => {
    expect(planLifecycle([input], settings, now).decisions[0]).toMatchObject(expected);
  });

  it('says why, with the count', () => {
    expect(planLifecycle([skill('release-cut', 45, { missed: 6 })], settings, now).decisions[0]).toMatchObject({
      detail: '6 session(s) needed it without loading it: not idle, so not stale',
      state: 'active',
    });
  });
});
