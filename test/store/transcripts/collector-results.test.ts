import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SessionCollector } from '../../../src/store/transcripts/collector.js';

type Step = { kind: 'call'; id: string } | { kind: 'result'; id: string; error: boolean };

/** The plain rule: one map of the calls awaiting their result, by id; a later call with an id replaces an earlier one. */
function plainErrors(steps: readonly Step[]): boolean[] {
  const errors: boolean[] = [];
  const awaiting = new Map<string, number>();
  for (const step of steps) {
    if (step.kind === 'call') {
      awaiting.set(step.id, errors.length);
      errors.push(false);
    } else {
      const at = awaiting.get(step.id);
      if (at === undefined) continue;
      awaiting.delete(step.id);
      if (step.error) errors[at] = true;
    }
  }
  return errors;
}

function collectorErrors(steps: readonly Step[]): boolean[] {
  const collector = new SessionCollector('f.jsonl', false, 's');
  for (const step of steps)
    if (step.kind === 'call') collector.call('s', 'Read', {}, undefined, step.id);
    else collector.result(step.id, step.error);
  return collector.finish().sessions.flatMap((s) => s.calls.map((c) => c.error === true));
}

describe('SessionCollector: results matched to their calls', () => {
  const id = fc.constantFrom('a', 'b', 'c', 'd', 'e');
  const step = fc.oneof(
    id.map((i): Step => ({ kind: 'call', id: i })),
    fc.record({ id, error: fc.boolean() }).map((r): Step => ({ kind: 'result', ...r })),
  );

  it('the latest call held apart marks the same calls as one map of awaiting calls (repeated ids, late and missing results)', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        expect(collectorErrors(steps)).toEqual(plainErrors(steps));
      }),
      { numRuns: 3000 },
    );
  });

  it('a result arriving after later calls still marks its own call', () => {
    const steps: Step[] = [
      { kind: 'call', id: 'a' },
      { kind: 'call', id: 'b' },
      { kind: 'call', id: 'c' },
      { kind: 'result', id: 'a', error: true },
      { kind: 'result', id: 'c', error: false },
      { kind: 'result', id: 'b', error: true },
    ];
    expect(collectorErrors(steps)).toEqual([true, true, false]);
  });
});
