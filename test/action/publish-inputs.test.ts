import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRefFormat } from '../helpers/repo.js';
import { resolveBranchSuffix } from '../../src/action/branch-name.js';
import { isSkillgardenError } from '../../src/core/errors.js';
import { readInputs } from '../../src/action/inputs.js';

const read = (inputs: Record<string, string>) =>
  readInputs(Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]))).publish;

const refusal = (inputs: Record<string, string>) => {
  try {
    read(inputs);
  } catch (error) {
    if (isSkillgardenError(error)) return { code: error.code, data: error.data, message: error.message };
  }
  return null;
};

describe('the publishing inputs', () => {
  it('default to a plain, unsigned, uncapped pull request on the unsuffixed branches', () => {
    expect(read({})).toEqual({
      draft: false,
      reviewers: [],
      teamReviewers: [],
      assignees: [],
      maxPullRequests: undefined,
      branchSuffix: '',
      signCommits: false,
    });
  });

  it('read lists as people write them: commas or lines, `@login`, `org/team`, duplicates once', () => {
    expect(
      read({
        draft: 'true',
        reviewers: '@ada, bob\nada',
        'team-reviewers': 'garden/maintainers, docs-team',
        assignees: 'carol-x',
        'max-pull-requests': '3',
        'branch-suffix': 'base',
        'sign-commits': 'TRUE',
      }),
    ).toEqual({
      draft: true,
      reviewers: ['ada', 'bob'],
      teamReviewers: ['maintainers', 'docs-team'],
      assignees: ['carol-x'],
      maxPullRequests: 3,
      branchSuffix: 'base',
      signCommits: true,
    });
  });

  it.each([
    [{ draft: 'yes' }, 'draft', 'yes'],
    [{ reviewers: 'ada, not a login' }, 'reviewers', 'not a login'],
    [{ reviewers: '-ada' }, 'reviewers', '-ada'],
    [{ assignees: 'a--b' }, 'assignees', 'a--b'],
    [{ 'team-reviewers': 'org/has space' }, 'team-reviewers', 'has space'],
    [{ 'max-pull-requests': '-1' }, 'max-pull-requests', '-1'],
    [{ 'max-pull-requests': '2.5' }, 'max-pull-requests', '2.5'],
    [{ 'max-pull-requests': 'all' }, 'max-pull-requests', 'all'],
    [{ 'branch-suffix': 'a/b' }, 'branch-suffix', 'a/b'],
    [{ 'branch-suffix': 'x..y' }, 'branch-suffix', 'x..y'],
    [{ 'branch-suffix': 'v1.lock' }, 'branch-suffix', 'v1.lock'],
    [{ 'sign-commits': 'on' }, 'sign-commits', 'on'],
  ])('%j is refused, naming the input', (inputs, name, value) => {
    const error = refusal(inputs);
    expect(error).toMatchObject({ code: 'action/bad-input', data: { input: name, value } });
    expect(error?.message).toContain(`\`${name}\``);
  });
});

describe('resolveBranchSuffix', () => {
  it.each([
    ['', 'main', ''],
    ['base', 'main', '@main'],
    ['base', 'develop', '@develop'],
    ['staging', 'main', '@staging'],
  ])('%j on %s → %j', (setting, base, expected) => {
    expect(resolveBranchSuffix(setting, base)).toBe(expected);
  });

  it('keeps bases apart that slug alike, and git accepts every branch it makes', () => {
    expect(resolveBranchSuffix('base', 'release/1.x')).not.toBe(resolveBranchSuffix('base', 'release-1.x'));
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 60 }).filter((b) => checkRefFormat(b)),
        fc.string({ minLength: 1, maxLength: 60 }).filter((b) => checkRefFormat(b)),
        (a, b) => {
          const sa = resolveBranchSuffix('base', a);
          const sb = resolveBranchSuffix('base', b);
          return checkRefFormat(`skillgarden/umbrella/x${sa}`) && (a === b) === (sa === sb);
        },
      ),
      { numRuns: 40 },
    );
  });
});
