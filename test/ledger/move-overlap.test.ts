import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { refuseMoveOverlap, type PreparedChange } from '../../src/ledger/prepare-changes.js';

const paths = [
  'skills/a',
  'skills/a/SKILL.md',
  'skills/b',
  'skills/.archive/a',
  'skills/.archive/b',
  '.skillgarden/state/a.json',
  'skills',
];
const file = (path: string): PreparedChange => ({ path, content: Buffer.from('x'), mode: '100644', oid: null, expected: undefined });
const move = (from: string, to: string): PreparedChange[] => {
  const half = { from, to };
  return [
    { path: from, content: null, mode: '040000', oid: null, expected: undefined, move: half },
    { path: to, content: null, mode: '040000', oid: null, expected: undefined, move: half },
  ];
};
const change = fc.oneof(
  fc.constantFrom(...paths).map((p) => [file(p)]),
  fc.tuple(fc.constantFrom(...paths), fc.constantFrom(...paths)).map(([from, to]) => move(from, to)),
);
const outcome = (check: () => void): string => {
  try {
    check();
    return 'ok';
  } catch (error) {
    return (error as Error).message;
  }
};

describe('refuseMoveOverlap on a batch, one commit at a time', () => {
  it('refuses what a check of the earlier changes and the new ones together refuses, naming the same path (the plain path)', () => {
    fc.assert(
      fc.property(fc.array(change, { maxLength: 4 }), fc.array(change, { minLength: 1, maxLength: 3 }), (earlier, added) => {
        const checked = earlier.flat();
        fc.pre(outcome(() => refuseMoveOverlap(checked)) === 'ok');
        const changes = added.flat();
        expect(outcome(() => refuseMoveOverlap(changes, checked))).toBe(outcome(() => refuseMoveOverlap([...checked, ...changes])));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a file inside a folder an earlier commit of the batch moves', () => {
    expect(() => refuseMoveOverlap([file('skills/a/SKILL.md')], move('skills/a', 'skills/.archive/a'))).toThrow(/skills\/a\/SKILL\.md/);
    expect(() => refuseMoveOverlap([file('skills/b/SKILL.md')], move('skills/a', 'skills/.archive/a'))).not.toThrow();
  });
});
