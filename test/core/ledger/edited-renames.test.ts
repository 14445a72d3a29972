import { describe, expect, it } from 'vitest';
import { lineSimilarity, pairEditedRenames, unpairedSkillFiles } from '../../../src/core/ledger/edited-renames.js';

describe('edited renames', () => {
  it('measures the share of lines two texts hold in common', () => {
    expect(lineSimilarity('a\nb\nc\nd', 'a\nb\nc\nx')).toBe(0.75);
    expect(lineSimilarity('a\na\nb', 'a\nb\nb')).toBeCloseTo(2 / 3);
    expect(lineSimilarity('a\n\n\nb', 'a\nb\n')).toBe(1);
    expect(lineSimilarity('', '')).toBe(1);
  });

  it('pairs the most similar files one to one, nothing below half, nothing on a tie', () => {
    const body = 'x\ny\nz\nw';
    expect(
      pairEditedRenames(
        [
          { path: 'skills/b/SKILL.md', text: `name: b\n${body}` },
          { path: 'skills/other/SKILL.md', text: 'p\nq\nr' },
        ],
        [{ blob: 'A', text: `name: a\n${body}` }],
      ),
    ).toEqual(new Map([['skills/b/SKILL.md', 'A']]));
    // Two deleted files equally like the added one: which skill it continues is a guess, so none.
    expect(
      pairEditedRenames(
        [{ path: 'skills/c/SKILL.md', text: `name: c\n${body}` }],
        [
          { blob: 'A', text: `name: a\n${body}` },
          { blob: 'B', text: `name: b\n${body}` },
        ],
      ).size,
    ).toBe(0);
  });

  it('looks only at SKILL.md files no identical blob explains', () => {
    const commit = {
      oid: 'c',
      parents: [],
      time: 0,
      message: '',
      changes: [
        { status: 'deleted' as const, path: 'skills/a/SKILL.md', blob: '1' },
        { status: 'added' as const, path: 'skills/.archive/a/SKILL.md', blob: '1' },
        { status: 'added' as const, path: 'skills/b/SKILL.md', blob: '2' },
      ],
    };
    expect(unpairedSkillFiles(commit)).toBeNull();
    commit.changes.push({ status: 'deleted', path: 'skills/c/SKILL.md', blob: '3' });
    expect(unpairedSkillFiles(commit)).toEqual({ added: [commit.changes[2]], deleted: [commit.changes[3]] });
  });
});
