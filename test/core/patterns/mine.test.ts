import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildFingerprint } from '../../../src/core/patterns/fingerprint.js';
import { buildJaccard, minePatternsFromTokens } from '../../../src/core/patterns/mine.js';
import { seededRandom } from '../../helpers/random.js';
import { countSessions, referenceCandidates } from './mine-reference.js';

const everything = { jaccardThreshold: 1.01, limit: Number.POSITIVE_INFINITY };

function asMap(patterns: { tools: string[]; sessions: number }[]): Map<string, number> {
  return new Map(patterns.map((p) => [p.tools.join('>'), p.sessions]));
}

describe('minePatterns', () => {
  it('finds a sequence seen in three sessions and drops its sub-sequences seen in the same sessions', () => {
    const sessions = [
      ['Grep', 'Read', 'Edit', 'Bash'],
      ['Read', 'Edit', 'Bash', 'Write'],
      ['Glob', 'Read', 'Edit', 'Bash'],
      ['Read', 'Write'],
    ];
    const patterns = minePatternsFromTokens(sessions);
    expect(patterns.map((p) => [p.tools, p.sessions])).toEqual([[['Read', 'Edit', 'Bash'], 3]]);
  });

  it('keeps a sub-sequence that is seen in more sessions than the longer one', () => {
    const sessions = [
      ['A', 'B', 'C'],
      ['A', 'B', 'C'],
      ['A', 'B', 'C'],
      ['A', 'B'],
      ['X', 'A', 'B'],
    ];
    const found = asMap(minePatternsFromTokens(sessions, everything));
    expect(found).toEqual(
      new Map([
        ['A>B>C', 3],
        ['A>B', 5],
      ]),
    );
  });

  it('counts a window once per session however often it repeats there', () => {
    const sessions = [
      ['A', 'B', 'A', 'B', 'A', 'B'],
      ['A', 'B'],
      ['C', 'A', 'B'],
    ];
    expect(asMap(minePatternsFromTokens(sessions, everything)).get('A>B')).toBe(3);
  });

  it('collapses runs of one tool before windowing, unless told not to', () => {
    const sessions = [
      ['Bash', 'Bash', 'Bash', 'Read'],
      ['Bash', 'Read'],
      ['Bash', 'Bash', 'Read'],
    ];
    expect(asMap(minePatternsFromTokens(sessions))).toEqual(new Map([['Bash>Read', 3]]));
    const raw = asMap(minePatternsFromTokens(sessions, { ...everything, collapseRuns: false }));
    expect(raw.has('Bash>Bash')).toBe(false); // only 2 sessions
    expect(raw.get('Bash>Read')).toBe(3);
  });

  it('honours minSessions, minLength and maxLength', () => {
    const sessions = [
      ['A', 'B', 'C', 'D'],
      ['A', 'B', 'C', 'D'],
    ];
    expect(minePatternsFromTokens(sessions)).toEqual([]);
    expect(asMap(minePatternsFromTokens(sessions, { minSessions: 2 }))).toEqual(new Map([['A>B>C>D', 2]]));
    expect(asMap(minePatternsFromTokens(sessions, { minSessions: 2, maxLength: 3 }))).toEqual(
      new Map([
        ['A>B>C', 2],
        ['B>C>D', 2],
      ]),
    );
    expect(
      minePatternsFromTokens(
        [
          ['A', 'B'],
          ['A', 'B'],
        ],
        { minSessions: 2, minLength: 3 },
      ),
    ).toEqual([]);
  });

  it('drops a near-duplicate by Jaccard similarity and scores overlap into confidence', () => {
    const sessions = Array.from({ length: 4 }, () => ['A', 'B', 'C', 'X', 'A', 'C', 'B']);
    const strict = minePatternsFromTokens(sessions, { jaccardThreshold: 0.5 });
    expect(strict.map((p) => p.tools)).toEqual([['A', 'B', 'C', 'X', 'A', 'C', 'B']]);
    const two = minePatternsFromTokens([
      ['A', 'B', 'C'],
      ['A', 'B', 'C'],
      ['A', 'B', 'C'],
      ['C', 'D'],
      ['C', 'D'],
      ['C', 'D'],
    ]);
    expect(two.map((p) => [p.tools.join(''), p.confidence])).toEqual([
      ['ABC', 0.75],
      ['CD', 0.75],
    ]);
  });

  it('computes confidence as min(1, ln f / ln 3) × (1 − max Jaccard)', () => {
    const [only] = minePatternsFromTokens(
      [
        ['A', 'B'],
        ['A', 'B'],
      ],
      { minSessions: 2 },
    );
    expect(only?.confidence).toBeCloseTo(Math.log(2) / Math.log(3), 3);
  });

  it('orders by confidence, then sessions', () => {
    const sessions = [
      ...Array.from({ length: 5 }, () => ['P', 'Q']),
      ...Array.from({ length: 3 }, () => ['R', 'S', 'T']),
      ...Array.from({ length: 4 }, () => ['S', 'T', 'U']),
    ];
    const patterns = minePatternsFromTokens(sessions);
    const order = patterns.map((p) => [p.confidence, p.sessions]);
    expect(order).toEqual([...order].sort((a, b) => (b[0] as number) - (a[0] as number) || (b[1] as number) - (a[1] as number)));
    expect(patterns[0]?.tools).toEqual(['P', 'Q']);
  });

  it('prefers a surprising procedure to a ubiquitous pair when the limit must choose, unless ordered by sessions', () => {
    const random = seededRandom(7);
    const common = ['Read', 'Bash', 'Grep'];
    const sessions = Array.from({ length: 30 }, (_, i) => {
      const session = Array.from({ length: 12 }, () => common[Math.floor(random() * common.length)] as string);
      if (i < 5) session.splice(6, 0, 'lint', 'fix', 'test', 'commit');
      return session;
    });
    expect(minePatternsFromTokens(sessions, { limit: 1 })[0]?.tools.slice(-4)).toEqual(['lint', 'fix', 'test', 'commit']);
    const [frequent] = minePatternsFromTokens(sessions, {
      limit: 1,
      order: 'sessions',
    });
    expect(frequent?.tools.every((t) => common.includes(t))).toBe(true);
  });

  it('gives each sequence a stable sha-256 fingerprint', () => {
    const expected = createHash('sha256').update('Read\nEdit').digest('hex').slice(0, 16);
    expect(buildFingerprint(['Read', 'Edit'])).toBe(expected);
    expect(buildFingerprint(['Edit', 'Read'])).not.toBe(expected);
    const [pattern] = minePatternsFromTokens([
      ['Read', 'Edit'],
      ['Read', 'Edit'],
      ['Read', 'Edit'],
    ]);
    expect(pattern?.fingerprint).toBe(expected);
  });

  it('measures Jaccard similarity on token sets', () => {
    expect(buildJaccard([1, 2, 3], [2, 3, 4])).toBeCloseTo(0.5);
    expect(buildJaccard([1, 1, 2], [2, 1])).toBe(1);
  });

  it('agrees with a brute-force reference on random sessions', () => {
    const token = fc.constantFrom('A', 'B', 'C', 'D');
    fc.assert(
      fc.property(
        fc.array(fc.array(token, { maxLength: 14 }), { maxLength: 10 }),
        fc.integer({ min: 1, max: 4 }),
        (sessions, minSessions) => {
          const mined = asMap(minePatternsFromTokens(sessions, { ...everything, minSessions }));
          expect(mined).toEqual(referenceCandidates(sessions, minSessions));
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('minePatterns on planted patterns among noise', () => {
  const random = seededRandom(42);
  const noise = Array.from({ length: 400 }, (_, i) => `noise_${i}`);
  const planted = [
    {
      tools: ['plan_a', 'fetch_a', 'parse_a', 'store_a', 'report_a'],
      sessions: 40,
    },
    { tools: ['search_b', 'open_b', 'edit_b'], sessions: 12 },
    { tools: ['lint_c', 'fix_c', 'test_c', 'commit_c'], sessions: 3 },
    { tools: ['rare_d', 'once_d', 'twice_d'], sessions: 2 },
  ];
  const sessions: string[][] = Array.from({ length: 300 }, () =>
    Array.from({ length: 30 + Math.floor(random() * 30) }, () => noise[Math.floor(random() * noise.length)] as string),
  );
  for (const plant of planted) {
    const chosen = new Set<number>();
    while (chosen.size < plant.sessions) chosen.add(Math.floor(random() * sessions.length));
    for (const s of chosen) {
      const session = sessions[s] as string[];
      session.splice(Math.floor(random() * session.length), 0, ...plant.tools);
    }
  }
  const patterns = minePatternsFromTokens(sessions, { limit: 1000 });

  it('finds every planted pattern at or above the threshold at its exact frequency', () => {
    for (const plant of planted.filter((p) => p.sessions >= 3)) {
      expect(patterns.find((p) => p.tools.join() === plant.tools.join())?.sessions, plant.tools.join()).toBe(plant.sessions);
    }
  });

  it('reports no pattern below the threshold, and every count is the true count', () => {
    expect(patterns.some((p) => p.tools.includes('rare_d'))).toBe(false);
    for (const pattern of patterns) {
      expect(pattern.sessions).toBeGreaterThanOrEqual(3);
      expect(countSessions(sessions, pattern.tools)).toBe(pattern.sessions);
    }
  });
});
