import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePendingBumps, serializePendingBump, type UsageBump } from '../../../src/core/usage/pending-bumps.js';

const bump = fc.record({
  skill: fc.string({ minLength: 1 }),
  kind: fc.constantFrom<UsageBump['kind']>('use', 'view', 'patch'),
  at: fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()),
});

describe('pending bumps', () => {
  it('parse ∘ serialize is the identity', () => {
    fc.assert(
      fc.property(fc.array(bump), (bumps) => {
        expect(parsePendingBumps(bumps.map(serializePendingBump).join(''))).toEqual(bumps);
      }),
    );
  });

  it('skips a torn line, a foreign kind and a time that is not one, keeping the rest', () => {
    const good = { skill: 'kit', kind: 'use', at: '2026-01-02T03:04:05.000Z' } as const;
    const text = [
      '{"skill":"kit","ki',
      JSON.stringify({ ...good, kind: 'delete' }),
      JSON.stringify({ ...good, at: 'soon' }),
      'null',
      JSON.stringify(good),
    ].join('\n');
    expect(parsePendingBumps(text)).toEqual([good]);
  });
});
