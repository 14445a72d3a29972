import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collapsePackedRuns, packSessions } from '../../../src/core/patterns/count-windows.js';
import { minePatterns } from '../../../src/core/patterns/mine.js';
import { collapseRuns } from '../../../src/core/patterns/tokens.js';

const sessionsArbitrary = fc.array(fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 30 }), { maxLength: 30 });

describe('sessions packed end to end', () => {
  it('collapse runs as collapsing each session then packing does', () => {
    fc.assert(
      fc.property(sessionsArbitrary, (sessions) => {
        const packed = collapsePackedRuns(packSessions(sessions));
        const plain = packSessions(sessions.map((s) => collapseRuns(s)));
        expect([...packed.tokens]).toEqual([...plain.tokens]);
        expect([...packed.starts]).toEqual([...plain.starts]);
      }),
      { numRuns: 300 },
    );
  });

  it('mine the same patterns as one array per session', () => {
    const vocabulary = ['Read', 'Edit', 'Bash', 'Grep', 'Write'];
    fc.assert(
      fc.property(sessionsArbitrary, fc.integer({ min: 2, max: 4 }), (sessions, minSessions) => {
        const arrays = sessions.map((s) => Int32Array.from(s));
        const packed = packSessions(arrays);
        expect(minePatterns({ packed, vocabulary }, { minSessions })).toEqual(
          minePatterns({ sessions: arrays, vocabulary }, { minSessions }),
        );
      }),
      { numRuns: 200 },
    );
  });
});
