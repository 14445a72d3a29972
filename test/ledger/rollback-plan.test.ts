import { describe, expect, it } from 'vitest';
import type { FileDiff } from '../../src/ledger/diff-trees.js';
import { findOrphans, listRemovedSkills, planRollback } from '../../src/ledger/rollback-plan.js';
import type { BlobRef } from '../../src/ledger/tree-edit.js';

const blob = (oid: string, mode = '100644'): BlobRef => ({ oid: oid.repeat(40).slice(0, 40), mode });
const diff = (path: string, before: BlobRef | null, after: BlobRef | null): FileDiff => ({ path, before, after });
const roots = ['skills', '.skillgarden'];

describe('planRollback', () => {
  it.each([
    {
      name: 'reverts files still at the version the commit left',
      diffs: [[diff('skills/a/SKILL.md', blob('1'), blob('2')), diff('skills/a/new.md', null, blob('3'))]],
      head: { 'skills/a/SKILL.md': blob('2'), 'skills/a/new.md': blob('3') },
      expected: { kind: 'revert', changes: [diff('skills/a/SKILL.md', blob('1'), blob('2')), diff('skills/a/new.md', null, blob('3'))] },
    },
    {
      name: 'refuses a file changed since, naming only it',
      diffs: [[diff('skills/a/SKILL.md', blob('1'), blob('2')), diff('skills/a/b.md', blob('4'), blob('5'))]],
      head: { 'skills/a/SKILL.md': blob('9'), 'skills/a/b.md': blob('5') },
      expected: { kind: 'refused', reason: 'changed-since', paths: ['skills/a/SKILL.md'] },
    },
    {
      name: 'treats a mode change since as a change',
      diffs: [[diff('skills/a/run.sh', blob('1'), blob('2'))]],
      head: { 'skills/a/run.sh': blob('2', '100755') },
      expected: { kind: 'refused', reason: 'changed-since', paths: ['skills/a/run.sh'] },
    },
    {
      name: 'is a no-op when every file is back at its old version',
      diffs: [[diff('skills/a/SKILL.md', blob('1'), blob('2')), diff('skills/a/new.md', null, blob('3'))]],
      head: { 'skills/a/SKILL.md': blob('1') },
      expected: { kind: 'noop' },
    },
    {
      name: 'folds a run: first before, last after',
      diffs: [[diff('.skillgarden/state.json', null, blob('1'))], [diff('.skillgarden/state.json', blob('1'), blob('2'))]],
      head: { '.skillgarden/state.json': blob('2') },
      expected: { kind: 'revert', changes: [diff('.skillgarden/state.json', null, blob('2'))] },
    },
    {
      name: 'refuses a run with a foreign change between two of its commits',
      diffs: [[diff('skills/a/SKILL.md', blob('1'), blob('2'))], [diff('skills/a/SKILL.md', blob('7'), blob('8'))]],
      head: { 'skills/a/SKILL.md': blob('8') },
      expected: { kind: 'refused', reason: 'changed-between', paths: ['skills/a/SKILL.md'] },
    },
    {
      name: 'refuses paths outside the skills root and .skillgarden/',
      diffs: [[diff('skills/a/SKILL.md', blob('1'), blob('2')), diff('skillsx/b.md', null, blob('3')), diff('README.md', null, blob('4'))]],
      head: {},
      expected: { kind: 'refused', reason: 'outside-skills-root', paths: ['skillsx/b.md', 'README.md'] },
    },
  ])('$name', ({ diffs, head, expected }) => {
    expect(planRollback({ diffs, head: new Map(Object.entries(head)), allowedRoots: roots })).toEqual(expected);
  });
});

describe('a revert that deletes a SKILL.md', () => {
  const added = blob('a');
  const changes = [
    { path: 'skills/x/SKILL.md', before: null, after: added },
    { path: 'skills/x/scripts/run.sh', before: null, after: added },
    { path: 'skills/y/SKILL.md', before: added, after: blob('b') },
  ];

  it('names the skill folders it removes, and the files HEAD holds there that the revert leaves', () => {
    expect(listRemovedSkills(changes)).toEqual(['skills/x']);
    expect(findOrphans(changes, ['skills/x/SKILL.md', 'skills/x/scripts/run.sh', 'skills/x/references/b.md'])).toEqual([
      'skills/x/references/b.md',
    ]);
    expect(findOrphans(changes, ['skills/x/SKILL.md', 'skills/x/scripts/run.sh'])).toEqual([]);
  });
});
