import { describe, expect, it } from 'vitest';
import { checkProposal } from '../../../src/services/proposals/check.js';
import type { BranchProposal } from '../../../src/services/proposals/proposal.js';

const skill = (name: string, body: string) =>
  `---\nname: ${name}\ndescription: Reviews a change before merge. Use when a pull request is ready.\n---\n# ${name}\n\n${body}\n`;

/** An umbrella proposal that also renames a mention in another skill (`writing-notes`), as a plan's reference rewrite does. */
function proposal(outside: string): BranchProposal {
  return {
    kind: 'umbrella',
    name: 'review',
    branch: 'skillgarden/umbrella/review',
    fingerprint: 'f',
    title: 't',
    labels: [],
    message: 'm',
    trailerBlock: '',
    reasons: [],
    structured: '',
    report: '',
    skills: ['review'],
    changes: [
      { path: 'skills/review/SKILL.md', content: skill('review', 'Read the diff, then the tests.') },
      { path: 'skills/writing-notes/SKILL.md', content: outside },
    ],
  };
}

describe('the proposal gate judges what a proposal changes, not what a skill it touches had already', () => {
  const escaping = 'See [the tools](../shared-tools/references/tools.md); for a review use `review`.';
  const before = skill('writing-notes', escaping.replace('`review`', '`review-old`'));
  const after = skill('writing-notes', escaping);

  it('refuses on an error the touched skill already had when the base is unknown', () => {
    expect(checkProposal(proposal(after), { profile: 'portable' }).problems).toEqual([expect.stringContaining('skill/link-escapes')]);
  });

  it('lets it through when the base had the same error: the umbrella only renamed a mention there', () => {
    const base = (path: string) => (path === 'skills/writing-notes/SKILL.md' ? before : undefined);
    expect(checkProposal(proposal(after), { profile: 'portable', base }).problems).toEqual([]);
  });

  it('still refuses an error the proposal brings in', () => {
    const clean = skill('writing-notes', 'For a review use `review-old`.');
    const base = (path: string) => (path === 'skills/writing-notes/SKILL.md' ? clean : undefined);
    expect(checkProposal(proposal(after), { profile: 'portable', base }).problems).toEqual([expect.stringContaining('skill/link-escapes')]);
  });
});
