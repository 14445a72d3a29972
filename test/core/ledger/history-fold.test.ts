import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderParentsFirst, type HistoryCommit, type PathChange } from '../../../src/core/ledger/commit-record.js';
import { foldHistory } from '../../../src/core/ledger/history-fold.js';
import { emptyHistoryIndex } from '../../../src/core/ledger/history-index.js';
import { buildCommitMessage, type LedgerTrailers } from '../../../src/core/ledger/trailers.js';

const names = ['a', 'b', 'c'];
const path = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('skills/', 'skills/.archive/', 'skills/cat/', 'skills/.archive/cat/', 'other/'),
      fc.constantFrom(...names),
      fc.constantFrom('/SKILL.md', '/references/r.md', '/scripts/s.sh'),
    )
    .map((parts) => parts.join('')),
  fc.constantFrom('README.md', 'skills/SKILL.md', 'skills/a/b/c/SKILL.md', '.skillgarden/state.json'),
);
const change: fc.Arbitrary<PathChange> = fc.record({ status: fc.constantFrom('added', 'modified', 'deleted'), path });
const trailers: fc.Arbitrary<LedgerTrailers> = fc.record(
  {
    action: fc.constantFrom('create', 'patch', 'adopt', 'pin', 'unpin', 'archive', 'usage', 'merge'),
    skills: fc.subarray(names),
    actor: fc.constantFrom('user', 'agent', 'curator'),
    source: fc.constantFrom('foreground', 'background'),
    reverts: fc.constant([]),
  },
  { requiredKeys: ['skills', 'actor', 'reverts'] },
);
const message = fc.oneof(
  trailers.map((t) => buildCommitMessage({ subject: 's', trailers: t })),
  fc.string({ maxLength: 40 }),
);

/** A linear history of random commits; merges get a second parent that is an earlier commit. */
const history: fc.Arbitrary<HistoryCommit[]> = fc
  .array(fc.record({ message, changes: fc.array(change, { maxLength: 6 }), merge: fc.boolean() }), { maxLength: 25 })
  .map((raw) =>
    raw.map((c, i) => ({
      oid: `c${i}`,
      parents: i === 0 ? [] : c.merge && i > 1 ? [`c${i - 1}`, `c${i - 2}`] : [`c${i - 1}`],
      time: 1_800_000_000 + i * 60,
      message: c.message,
      changes: c.changes,
    })),
  );

const empty = emptyHistoryIndex('skills');

describe('foldHistory', () => {
  it('folding in two steps, through JSON as the cache does, equals folding at once', () => {
    fc.assert(
      fc.property(history, fc.nat(), (commits, cut) => {
        const at = commits.length === 0 ? 0 : cut % (commits.length + 1);
        const head = commits.at(-1)?.oid ?? null;
        const first = foldHistory(empty, commits.slice(0, at), commits[at - 1]?.oid ?? null);
        const cached = JSON.parse(JSON.stringify(first)) as typeof first;
        expect(foldHistory(cached, commits.slice(at), head)).toEqual(foldHistory(empty, commits, head));
      }),
      { numRuns: 300 },
    );
  });

  it('never throws and lists only skills in the skills root', () => {
    fc.assert(
      fc.property(history, (commits) => {
        const index = foldHistory(empty, commits, null);
        for (const s of Object.values(index.skills)) expect(s.folder.startsWith('skills/')).toBe(true);
        expect(index.commits).toBe(commits.length);
      }),
    );
  });

  it('does not change the index it is given', () => {
    const created = foldHistory(
      empty,
      [{ oid: 'c0', parents: [], time: 0, message: 'x', changes: [{ status: 'added', path: 'skills/a/SKILL.md' }] }],
      'c0',
    );
    const before = structuredClone(created);
    foldHistory(
      created,
      [{ oid: 'c1', parents: ['c0'], time: 60, message: 'y', changes: [{ status: 'modified', path: 'skills/a/SKILL.md' }] }],
      'c1',
    );
    expect(created).toEqual(before);
  });

  it.each([
    ['a skill at the root', 'skills/a/SKILL.md', 'skills/a'],
    ['a skill in a category', 'skills/cat/a/SKILL.md', 'skills/cat/a'],
    ['an archived skill in a category', 'skills/.archive/cat/a/SKILL.md', 'skills/.archive/cat/a'],
    ['a SKILL.md too deep', 'skills/x/y/a/SKILL.md', null],
    ['a SKILL.md in the root itself', 'skills/SKILL.md', null],
    ['a hidden folder', 'skills/.hub/a/SKILL.md', null],
    ['outside the root', 'docs/a/SKILL.md', null],
  ])('finds %s', (_name, file, folder) => {
    const index = foldHistory(empty, [{ oid: 'c0', parents: [], time: 0, message: 'm', changes: [{ status: 'added', path: file }] }], 'c0');
    expect(Object.values(index.skills).map((s) => s.folder)).toEqual(folder === null ? [] : [folder]);
  });
});

describe('orderParentsFirst', () => {
  it('puts every parent before its children and keeps every commit', () => {
    fc.assert(
      fc.property(history, fc.func(fc.integer()), (commits, key) => {
        const shuffled = [...commits].sort((x, y) => key(x.oid) - key(y.oid));
        const ordered = orderParentsFirst(shuffled);
        expect(new Set(ordered.map((c) => c.oid))).toEqual(new Set(commits.map((c) => c.oid)));
        const position = new Map(ordered.map((c, i) => [c.oid, i]));
        for (const c of ordered) for (const p of c.parents) expect(position.get(p)).toBeLessThan(position.get(c.oid) as number);
      }),
    );
  });

  it("gives the first parent's line before the merged branch", () => {
    const commit = (oid: string, parents: string[]) => ({ oid, parents, time: 0, message: '' });
    const order = orderParentsFirst([commit('m', ['p', 's']), commit('s', ['r']), commit('p', ['r']), commit('r', [])]);
    expect(order.map((c) => c.oid)).toEqual(['r', 'p', 's', 'm']);
  });
});
