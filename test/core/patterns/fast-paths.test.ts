import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countWindows, packSessions, type TableMode } from '../../../src/core/patterns/count-windows.js';
import { heapOrder, orderCandidates } from '../../../src/core/patterns/order-candidates.js';
import { collapseRuns } from '../../../src/core/patterns/tokens.js';
import { referenceCandidates } from './mine-reference.js';

// Mining's fast paths against the plain ones: the direct-indexed table against hashing,
// the lazy heap against sorting everything, on random sessions over few tools (where
// nearly every window is frequent, as on a dozen real tools) and over many.
const sessionsOf = (tokens: number) => fc.array(fc.array(fc.integer({ min: 0, max: tokens - 1 }), { maxLength: 40 }), { maxLength: 30 });
const anySessions = fc.oneof(sessionsOf(3), sessionsOf(12), sessionsOf(200));

function levelsWith(sessions: number[][], minSessions: number, table: TableMode) {
  const levels = countWindows(packSessions(sessions.map((s) => collapseRuns(s))), { minSessions, maxLength: 8, table });
  return levels.map((l) => ({
    length: l.length,
    prefix: [...l.prefix],
    suffix: [...l.suffix],
    last: [...l.last],
    sessions: [...l.sessions],
  }));
}

describe('mining fast paths', () => {
  it('the direct table counts the same levels, ids and all, as hashing', () => {
    fc.assert(
      fc.property(anySessions, fc.integer({ min: 1, max: 4 }), (sessions, minSessions) => {
        expect(levelsWith(sessions, minSessions, 'auto')).toEqual(levelsWith(sessions, minSessions, 'hash'));
      }),
      { numRuns: 300 },
    );
  });

  it('the heap yields exactly the order a full sort gives, ties included', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 300 }), (keys) => {
        // Ties on the key are broken by index, so the order is total, as the miner's is.
        const before = (a: number, b: number) => (keys[b] as number) - (keys[a] as number) || a - b;
        const sorted = keys.map((_, i) => i).sort(before);
        expect([...heapOrder(keys.length, before)]).toEqual(sorted);
      }),
      { numRuns: 300 },
    );
  });

  it('orders every candidate as the plain definition does: most sessions, then longest, then by name', () => {
    fc.assert(
      fc.property(sessionsOf(4), fc.integer({ min: 1, max: 3 }), (sessions, minSessions) => {
        const vocabulary = ['d', 'c', 'b', 'a'];
        const names = sessions.map((s) => s.map((t) => vocabulary[t] as string));
        const packed = packSessions(sessions.map((s) => collapseRuns(s)));
        const levels = countWindows(packed, { minSessions, maxLength: 8 });
        const got = [...orderCandidates({ levels, vocabulary, packed, minLength: 2 }, 'sessions')].map((c) => ({
          key: c.ids.map((id) => vocabulary[id]).join('>'),
          sessions: c.sessions,
        }));
        const expected = [...referenceCandidates(names, minSessions)]
          .filter(([key]) => key.includes('>'))
          .map(([key, count]) => ({ key, sessions: count }))
          .sort((a, b) => {
            const [ta, tb] = [a.key.split('>'), b.key.split('>')];
            if (b.sessions !== a.sessions) return b.sessions - a.sessions;
            if (tb.length !== ta.length) return tb.length - ta.length;
            for (let i = 0; i < ta.length; i += 1) if (ta[i] !== tb[i]) return (ta[i] as string) < (tb[i] as string) ? -1 : 1;
            return 0;
          });
        expect(got).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
