import { describe, expect, it } from 'vitest';
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
