import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serializeState, type CuratorState } from '../../../src/core/config/state.js';
import { StateText } from '../../../src/core/config/state-text.js';
import type { SkillStateRecord } from '../../../src/core/lifecycle/types.js';

const name = fc.oneof(
  fc.constantFrom('a', 'b', 'pdf', 'pdf-2', 'Zeta', 'é-skill', 'x/y', '0', '10', '9', '01'),
  fc.string({ minLength: 1, maxLength: 8 }),
);
const record: fc.Arbitrary<SkillStateRecord> = fc.oneof(
  fc.constant({ state: 'stale', since: '2026-11-30T00:00:00Z' }),
  fc.constant({ seeded_at: '2026-01-01T00:00:00Z' }),
  fc.constant({}),
);

describe('StateText', () => {
  it('gives the bytes serializeState gives, after any sequence of changes, and previews change nothing', () => {
    fc.assert(
      fc.property(
        fc.dictionary(name, record, { maxKeys: 6 }),
        fc.array(fc.tuple(name, fc.option(record, { nil: undefined }), fc.boolean()), { maxLength: 12 }),
        fc.boolean(),
        (skills, changes, withRun) => {
          const base: CuratorState = {
            version: 1,
            skills,
            rejected_proposals: ['b', 'a'],
            ...(withRun ? { last_run_at: '2026-11-01T00:00:00Z', last_run_id: 'r1' } : {}),
          };
          const text = new StateText(base);
          const model = { ...skills };
          expect(text.bytes().toString('utf8')).toBe(serializeState({ ...base, skills: model }));
          for (const [skill, next, keep] of changes) {
            const change = text.change(skill, next);
            const expected = { ...model };
            if (next === undefined) delete expected[skill];
            else expected[skill] = next;
            expect(change.bytes.toString('utf8')).toBe(serializeState({ ...base, skills: expected }));
            expect(change.changed).toBe(!change.bytes.equals(text.bytes()));
            if (!keep) continue;
            change.apply();
            Object.assign(model, expected);
            if (next === undefined) delete model[skill];
          }
          expect(text.bytes().toString('utf8')).toBe(serializeState({ ...base, skills: model }));
          expect(serializeState(text.state())).toBe(serializeState({ ...base, skills: model }));
        },
      ),
      { numRuns: 300 },
    );
  });
});
