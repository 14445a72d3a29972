import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRefFormat } from '../../helpers/repo.js';
import { buildProposalBranch, parseProposalBranch } from '../../../src/services/proposals/branch.js';

describe('proposal branch names', () => {
  it('read back what they were built from, with or without the Action’s @<base> suffix', () => {
    expect(parseProposalBranch(buildProposalBranch('lifecycle'))).toEqual({ kind: 'lifecycle', name: 'lifecycle' });
    expect(parseProposalBranch(buildProposalBranch('umbrella', 'Git Workflows'))).toEqual({ kind: 'umbrella', name: 'git-workflows' });
    expect(parseProposalBranch('skillgarden/lifecycle@main')).toEqual({ kind: 'lifecycle', name: 'lifecycle' });
    expect(parseProposalBranch('skillgarden/new/cut-release@release-1.x-81caa6')).toEqual({ kind: 'new', name: 'cut-release' });
  });

  it('are not read into other branches', () => {
    for (const other of ['main', 'skillgarden/lifecycles', 'skillgarden/run/x', 'skillgarden/umbrella/', 'feature/skillgarden/new/x'])
      expect(parseProposalBranch(other)).toBeUndefined();
  });
});

describe('buildProposalBranch (the CLI, the Action and staged writes: one sanitizer)', () => {
  it.each([
    ['deploy-checklist', 'skillgarden/umbrella/deploy-checklist'],
    ['../../etc/passwd', 'skillgarden/umbrella/etc-passwd'],
    ['a..b', 'skillgarden/umbrella/a.b'],
    ['name.lock', 'skillgarden/umbrella/name-lock'],
    ['@{upstream}', 'skillgarden/umbrella/upstream'],
    ['.hidden', 'skillgarden/umbrella/hidden'],
    ['with space~^:?*[\\', 'skillgarden/umbrella/with-space'],
    ['Ünïcödé Name', 'skillgarden/umbrella/unicode-name'],
    ['', 'skillgarden/umbrella/unnamed'],
    ['---', 'skillgarden/umbrella/unnamed'],
  ])('%j → %s', (name, expected) => {
    expect(buildProposalBranch('umbrella', name)).toBe(expected);
    expect(checkRefFormat(expected)).toBe(true);
  });

  it("sanitizes a staged write's branch as every other kind's", () => {
    expect(buildProposalBranch('staged', 'pdf')).toBe('skillgarden/staged/pdf');
    expect(buildProposalBranch('staged', '../x..y')).toBe('skillgarden/staged/x.y');
  });

  it('git accepts every branch it builds, from any name', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (name) => {
        const branch = buildProposalBranch('new', name);
        return branch.startsWith('skillgarden/new/') && branch.length <= 100 && checkRefFormat(branch);
      }),
      { numRuns: 60 },
    );
  });
});
