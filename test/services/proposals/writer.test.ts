import { describe, expect, it } from 'vitest';
import { openLedger } from '../../../src/ledger/open-ledger.js';
import {
  buildLifecycleText,
  commitProposal,
  readFingerprint,
  renderProposalBody,
  type BranchProposal,
} from '../../../src/services/proposals/index.js';
import { git as rawGit, repoWith } from '../../helpers/repo.js';

const git = (dir: string, ...args: string[]) => rawGit(dir, ...args).trim();

const transitions = [
  {
    skill: 'tidy',
    from: 'active',
    to: 'stale',
    anchor: '2026-10-01T00:00:00Z',
    anchor_source: 'created',
    reason: 'unused for 45 days',
    commit: null,
  },
  {
    skill: 'old',
    from: 'stale',
    to: 'archived',
    anchor: '2026-06-01T00:00:00Z',
    anchor_source: 'use',
    reason: 'unused for 180 days',
    commit: null,
  },
] as const;

describe('the shared proposal writer', () => {
  it('words a lifecycle proposal once for both the CLI and the Action: title, labels, trailers last, fingerprint by decisions', () => {
    const text = buildLifecycleText({
      transitions: [...transitions],
      runId: 'r1',
      deferred: [{ skill: 'git-x', from: 'active', to: 'stale', umbrella: 'git-workflows' }],
    });
    expect(text?.title).toBe('skillgarden: lifecycle — 1 marked stale, 1 archived');
    expect(text?.labels).toEqual(['skillgarden', 'lifecycle']);
    expect(text?.trailerBlock.split('\n')).toEqual([
      'Skill-Action: mark-stale',
      'Skill-Action: archive',
      'Skill-Name: tidy',
      'Skill-Name: old',
      'Skill-Actor: curator',
      'Curator-Run: r1',
    ]);
    expect(text?.reasons.at(-1)).toContain('`skillgarden/umbrella/git-workflows` changes it');
    expect(text?.structured).toContain('deferred:');
    // Another run, the same decisions in another order: the same proposal.
    expect(buildLifecycleText({ transitions: [...transitions].reverse(), runId: 'r2' })?.fingerprint).toBe(text?.fingerprint);
    expect(buildLifecycleText({ transitions: [], runId: 'r3' })).toBeUndefined();

    const body = renderProposalBody({ proposal: text as BranchProposal, runId: 'r1' });
    expect(readFingerprint(body)).toBe(text?.fingerprint);
    expect(body).not.toContain('## Validation');
    expect(body.trimEnd().endsWith('Curator-Run: r1')).toBe(true);
    expect(renderProposalBody({ proposal: text as BranchProposal, runId: 'r1', validation: 'all valid' })).toContain(
      '## Validation\n\nall valid',
    );
  });

  it('commits a proposal on its branch from a base, and refuses to overwrite a branch that moved', async () => {
    const dir = repoWith({ 'README.md': 'notes\n' });
    const head = git(dir, 'rev-parse', 'HEAD');
    const text = buildLifecycleText({ transitions: [...transitions], runId: 'r1' }) as Omit<BranchProposal, 'changes'>;
    const proposal: BranchProposal = { ...text, changes: [{ path: 'skills/new/SKILL.md', content: 'x\n', expected: null }] };
    const ledger = await openLedger(dir, { backend: 'isomorphic-git', now: () => new Date('2026-11-30T00:00:00Z') });
    try {
      const commit = await commitProposal(ledger, proposal, { base: head, expectedTip: null });
      expect(git(dir, 'rev-parse', 'skillgarden/lifecycle')).toBe(commit);
      expect(git(dir, 'log', '-1', '--format=%P', commit)).toBe(head);
      expect(git(dir, 'rev-parse', 'HEAD')).toBe(head);
      await expect(commitProposal(ledger, proposal, { base: head, expectedTip: null })).rejects.toThrow();
      const again = await commitProposal(ledger, proposal, { base: head, expectedTip: commit });
      expect(git(dir, 'rev-list', '--count', `${head}..${again}`)).toBe('1');
    } finally {
      await ledger.close();
    }
  });
});
