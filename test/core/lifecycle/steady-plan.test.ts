import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  planLifecycle,
  planSteady,
  type LifecycleSettings,
  type LifecycleSkill,
  type SteadyEntry,
} from '../../../src/core/lifecycle/index.js';

const dayMs = 86_400_000;
const start = Date.parse('2026-06-01T00:00:00Z');
const iso = (day: number) => new Date(start + day * dayMs).toISOString();
const settings: LifecycleSettings = { stale_after_days: 30, archive_after_days: 90, prune_bundled: false, protected: ['skill-1'] };

/** Days relative to `start`, some on the clock's own thresholds, so the inclusive cutoffs are exercised. */
const dayArb = fc.oneof(fc.integer({ min: -200, max: 200 }), fc.constantFrom(-90, -30, 0, 30, 60, 90));
const optionalDay = fc.option(dayArb, { nil: undefined });

const skillArb = (name: string) =>
  fc
    .record({
      provenance: fc.constantFrom('agent', 'user', 'bundled', 'hub' as const),
      adopted: optionalDay,
      pinned: fc.boolean(),
      referenced: fc.boolean(),
      created: optionalDay,
      used: optionalDay,
      viewed: optionalDay,
      patched: optionalDay,
      stale: fc.boolean(),
      seeded: optionalDay,
    })
    .map((r): LifecycleSkill => {
      const usage = {
        ...(r.used !== undefined ? { last_used_at: iso(r.used) } : {}),
        ...(r.viewed !== undefined ? { last_viewed_at: iso(r.viewed) } : {}),
        ...(r.patched !== undefined ? { last_patched_at: iso(r.patched) } : {}),
      };
      const record = {
        ...(r.stale ? { state: 'stale' as const, since: iso(0) } : {}),
        ...(r.seeded !== undefined ? { seeded_at: iso(r.seeded) } : {}),
      };
      return {
        name,
        provenance: r.provenance,
        pinned: r.pinned,
        referenced: r.referenced,
        ...(r.adopted !== undefined ? { adoptedAt: iso(r.adopted) } : {}),
        ...(r.created !== undefined ? { createdAt: iso(r.created) } : {}),
        ...(Object.keys(usage).length > 0 ? { usage } : {}),
        ...(Object.keys(record).length > 0 ? { record } : {}),
      };
    });

const libraryArb = fc.integer({ min: 0, max: 25 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => skillArb(`skill-${i}`))));

/** A step between passes: some skills replaced by new inputs, some removed, one added, and the clock moved (also backwards). */
const stepArb = fc.record({
  replace: fc.array(fc.tuple(fc.nat(30), skillArb('x')), { maxLength: 4 }),
  remove: fc.array(fc.nat(30), { maxLength: 2 }),
  add: fc.option(skillArb('added'), { nil: undefined }),
  clock: fc.oneof(fc.integer({ min: -3, max: 120 }), fc.constantFrom(0, 30, 90)),
  hours: fc.integer({ min: -2, max: 30 }),
});

describe('planSteady', () => {
  it('gives the plan planLifecycle gives, pass after pass, whatever changed and wherever the clock went', () => {
    fc.assert(
      fc.property(libraryArb, fc.array(stepArb, { minLength: 1, maxLength: 6 }), (initial, steps) => {
        const skills: LifecycleSkill[] = [...initial];
        let entries: Record<string, SteadyEntry> = {};
        let time = start;
        let added = 0;
        for (const step of [null, ...steps]) {
          if (step) {
            for (const [at, skill] of step.replace)
              if (skills.length > 0) skills[at % skills.length] = { ...skill, name: skills[at % skills.length]!.name };
            for (const at of step.remove) if (skills.length > 0) skills.splice(at % skills.length, 1);
            if (step.add) skills.push({ ...step.add, name: `added-${added++}` });
            time += step.clock * dayMs + step.hours * 3_600_000;
          }
          const now = new Date(time);
          const steady = planSteady(entries, skills, settings, now);
          expect(steady.plan).toEqual(planLifecycle(skills, settings, now));
          entries = steady.entries;
        }
      }),
      { numRuns: 400 },
    );
  });

  it('decides nothing afresh when nothing changed, and redecides a skill when the clock reaches its threshold', () => {
    const skill: LifecycleSkill = {
      name: 'a',
      provenance: 'agent',
      pinned: false,
      referenced: false,
      createdAt: iso(0),
      usage: { last_used_at: iso(10) },
    };
    const first = planSteady({}, [skill], settings, new Date(start + 20 * dayMs));
    expect(first.planned).toBe(1);
    expect(first.nextChangeAt).toBe(start + 40 * dayMs);
    const steady = planSteady(first.entries, [skill], settings, new Date(start + 39 * dayMs));
    expect(steady.planned).toBe(0);
    const crossed = planSteady(steady.entries, [skill], settings, new Date(start + 40 * dayMs));
    expect(crossed.planned).toBe(1);
    expect(crossed.plan.decisions[0]).toMatchObject({ kind: 'transition', to: 'stale' });
  });

  it('never keeps a verdict anchored on the clock itself (a skill seeded in this pass)', () => {
    const skill: LifecycleSkill = { name: 'b', provenance: 'bundled', pinned: false, referenced: false };
    const bundled = { ...settings, prune_bundled: true };
    const first = planSteady({}, [skill], bundled, new Date(start));
    expect(first.plan.seeds).toEqual(['b']);
    const again = planSteady(first.entries, [skill], bundled, new Date(start + 1000));
    expect(again.planned).toBe(1);
    expect(again.plan).toEqual(planLifecycle([skill], bundled, new Date(start + 1000)));
  });
});
