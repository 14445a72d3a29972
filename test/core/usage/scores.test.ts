import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInactive, usageScore } from '../../../src/core/usage/index.js';

const now = new Date('2026-11-30T00:00:00Z');
const hoursAgo = (h: number): string => new Date(now.getTime() - h * 3_600_000).toISOString();

describe('usageScore', () => {
  it.each([
    { name: 'never used', counters: undefined, expected: 0 },
    { name: 'one use just now', counters: { use_count: 1, last_used_at: now.toISOString() }, expected: Math.log(2) },
    { name: 'one use a week ago halves', counters: { use_count: 1, last_used_at: hoursAgo(168) }, expected: Math.log(2) / 2 },
    { name: 'three uses two weeks ago', counters: { use_count: 3, last_used_at: hoursAgo(336) }, expected: Math.log(4) / 4 },
    { name: 'uses without a time count as 0.1 h old', counters: { use_count: 3 }, expected: Math.log(4) * 0.5 ** (0.1 / 168) },
    {
      name: 'a bad time counts as none',
      counters: { use_count: 1, last_used_at: 'yesterday' },
      expected: Math.log(2) * 0.5 ** (0.1 / 168),
    },
  ])('$name', ({ counters, expected }) => {
    expect(usageScore(counters, now)).toBeCloseTo(expected, 12);
  });

  it('grows with uses and falls with age (property)', () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.nat(1000), fc.nat(5000), fc.nat(5000), (u1, u2, a1, a2) => {
        const at = (uses: number, age: number) => usageScore({ use_count: uses, last_used_at: hoursAgo(age) }, now);
        const [lo, hi] = u1 <= u2 ? [u1, u2] : [u2, u1];
        const [young, old] = a1 <= a2 ? [a1, a2] : [a2, a1];
        expect(at(lo, young)).toBeLessThanOrEqual(at(hi, young));
        expect(at(hi, old)).toBeLessThanOrEqual(at(hi, young));
      }),
    );
  });
});

describe('isInactive', () => {
  it.each([
    { name: 'never used is not inactive', counters: undefined, pinned: false, expected: false },
    {
      name: 'viewed long ago but never used is not inactive',
      counters: { view_count: 2, last_viewed_at: hoursAgo(2000) },
      pinned: false,
      expected: false,
    },
    { name: 'used 8 days ago is inactive', counters: { use_count: 2, last_used_at: hoursAgo(8 * 24) }, pinned: false, expected: true },
    { name: 'used 6 days ago is active', counters: { use_count: 2, last_used_at: hoursAgo(6 * 24) }, pinned: false, expected: false },
    {
      name: 'old use, recent view is active',
      counters: { use_count: 2, last_used_at: hoursAgo(900), last_viewed_at: hoursAgo(1) },
      pinned: false,
      expected: false,
    },
    {
      name: 'old use, recent patch is active',
      counters: { use_count: 2, last_used_at: hoursAgo(900), last_patched_at: hoursAgo(1) },
      pinned: false,
      expected: false,
    },
    {
      name: 'used exactly 7 days ago is inactive',
      counters: { use_count: 1, last_used_at: hoursAgo(7 * 24) },
      pinned: false,
      expected: true,
    },
    {
      name: 'used a second less than 7 days ago is active',
      counters: { use_count: 1, last_used_at: new Date(now.getTime() - 7 * 24 * 3_600_000 + 1000).toISOString() },
      pinned: false,
      expected: false,
    },
    { name: 'a use time without a count is still a use', counters: { last_used_at: hoursAgo(8 * 24) }, pinned: false, expected: true },
    { name: 'pinned never goes inactive', counters: { use_count: 2, last_used_at: hoursAgo(900) }, pinned: true, expected: false },
  ])('$name', ({ counters, pinned, expected }) => {
    expect(isInactive(counters, now, { pinned })).toBe(expected);
  });
});
