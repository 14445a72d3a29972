import { describe, expect, it } from 'vitest';
import { planLifecycle, type LifecycleSkill } from '../../../src/core/lifecycle/index.js';

const now = new Date('2026-11-30T00:00:00Z');
const settings = { stale_after_days: 30, archive_after_days: 90, prune_bundled: false, protected: [] };
const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000).toISOString();
const skill = (created: number, extra: Partial<LifecycleSkill> = {}): LifecycleSkill => ({
  name: 'pdf',
  provenance: 'agent',
  pinned: false,
  referenced: false,
  createdAt: daysAgo(created),
  ...extra,
});
const linked = { linkedFrom: ['.gemini/skills/pdf'] };

describe('the curator never archives a skill a link points at: the alias would point at nothing', () => {
  it.each([
    ['idle 120 days, active, no link', skill(120), { kind: 'transition', to: 'archived' }],
    ['idle 120 days, active, linked', skill(120, linked), { kind: 'transition', to: 'stale' }],
    ['idle 120 days, stale, no link', skill(120, { record: { state: 'stale' } }), { kind: 'transition', to: 'archived' }],
    ['idle 120 days, stale, linked', skill(120, { ...linked, record: { state: 'stale' } }), { kind: 'skip', reason: 'unchanged' }],
    ['idle 45 days, active, linked', skill(45, linked), { kind: 'transition', to: 'stale' }],
  ])('%s', (_, input, expected) => {
    expect(planLifecycle([input], settings, now).decisions[0]).toMatchObject(expected);
  });

  it('says which links hold it and what lets it go', () => {
    const [active] = planLifecycle([skill(120, linked)], settings, now).decisions;
    expect(active).toMatchObject({
      reason: expect.stringContaining('(not archived: .gemini/skills/pdf links to it; remove the link to let it be archived)'),
    });
    const [stale] = planLifecycle([skill(120, { ...linked, record: { state: 'stale' } })], settings, now).decisions;
    expect(stale).toMatchObject({ detail: expect.stringContaining('not archived: .gemini/skills/pdf links to it') });
  });
});
