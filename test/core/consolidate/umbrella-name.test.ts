import { describe, expect, it } from 'vitest';
import { buildFeatures } from '../../../src/core/consolidate/features.js';
import { planConsolidation } from '../../../src/core/consolidate/plan.js';
import { findSharedNameRun, findTellingName } from '../../../src/core/consolidate/umbrella-name.js';
import { describeFullCorpus } from '../../helpers/corpus.js';
import { readCorpusSkill } from '../../fixtures/consolidate/duplicates-set.js';
import { curated, now } from './library.js';

const steps =
  'Check `git status` and `git log --oneline` first.\n\nMake the change on the local branch history, then check `git log --oneline` again before you push with `--force-with-lease`.\n';

/** Four narrow git notes an agent wrote, all about rewriting the local branch history. */
function gitFamily() {
  return [
    [
      'git-amend-commit',
      'Amend the last commit',
      'Amends the last commit of the local branch history with staged changes. Use when the last commit missed a file.',
    ],
    [
      'git-squash-fixups',
      'Squash fixups',
      'Squashes fixup commits in the local branch history before review. Use when a branch has fixup commits.',
    ],
    [
      'git-reword-message',
      'Reword a message',
      'Rewords an old commit message in the local branch history. Use when a commit message has a typo.',
    ],
    [
      'git-drop-commit',
      'Drop a commit',
      'Drops one commit from the local branch history and keeps the rest. Use when a commit should not be on the branch.',
    ],
  ].map(([name, title, description]) => curated(name as string, `# ${title}\n\n${steps}`, { description: description as string }));
}

/** A person's git skill about something else (pinned): it stays outside the umbrella. */
const bisect = curated(
  'git-bisect-regression',
  '# Bisect a regression\n\nMark the bad and the last good release, run `git bisect run npm test`, read the first bad one, then `git bisect reset`.\n',
  {
    description:
      'Finds the change that introduced a regression with git bisect and a test command. Use when something worked in an older release.',
    pinned: true,
  },
);

describe('a telling umbrella name', () => {
  it('names four git skills for what they share when another git skill stays outside (not the bare `git`)', () => {
    const result = planConsolidation({ skills: [...gitFamily(), bisect], now });
    expect(result.plans).toHaveLength(1);
    const plan = result.plans[0]!;
    expect(plan.from.sort()).toEqual(['git-amend-commit', 'git-drop-commit', 'git-reword-message', 'git-squash-fixups']);
    expect(plan.into).toBe('git-local-branch');
    expect(plan.reason).toContain('what every member is about');
  });

  it('keeps the bare prefix when every skill of the prefix is a member: it covers all of them', () => {
    const plan = planConsolidation({ skills: gitFamily(), now }).plans[0]!;
    expect(plan.into).toBe('git');
  });

  it('reads the name from three members or more, and only from words every member says', () => {
    const features = gitFamily().map((s) => buildFeatures(s, { minhash_hashes: 64 }));
    const names = new Set(['git-bisect-regression', ...features.map((f) => f.name)]);
    expect(findTellingName('git', features, names)).toBe('git-local-branch');
    expect(findTellingName('git', features.slice(0, 2), names)).toBeUndefined();
    expect(findTellingName('git-rebase', features, names)).toBeUndefined();
    const other = buildFeatures(curated('git-tag-release', '# Tag\n\nTag it.\n', { description: 'Tags a release for the changelog.' }), {
      minhash_hashes: 64,
    });
    expect(findTellingName('git', [...features, other], names)).toBeUndefined();
  });
});

describe('the umbrella is named for the class its members share', () => {
  it.each([
    [['slime-rl-training', 'verl-rl-training', 'grpo-rl-training'], 'rl-training'],
    [['systematic-debugging-superpowers', 'systematic-debugging'], 'systematic-debugging'],
    [['awq-quantization', 'gguf-quantization', 'hqq-quantization'], 'quantization'],
    [['hermes-pdf-tools', 'pdf-tools-hub'], 'pdf-tools'],
    [['review-skill', 'audit-skill'], null],
    [['deploy', 'q1a2b3c4d'], null],
  ])('%j → %s', (names, expected) => {
    expect(findSharedNameRun(names, 3)).toBe(expected);
  });
});

describeFullCorpus('umbrella names on real corpus families', () => {
  const pptx = [
    'pptx-deck-context',
    'pptx-quality-gates',
    'pptx-reference-deck-analysis',
    'pptx-slide-specification',
    'pptx-visual-assets',
  ];

  it('names the pptx deck family for what it shares (`pptx-deck`), not after its broadest member', () => {
    const family = pptx.map((n) => readCorpusSkill(`wshobson__agents/plugins/pptx-deck-creation/skills/${n}`));
    // Two other pptx skills of the library stay outside: the bare `pptx` would claim them too.
    const outside = [
      readCorpusSkill('alt-glitch__hermes-agent/optional-skills/finance/pptx-author'),
      readCorpusSkill('K-Dense-AI__claude-scientific-skills/scientific-skills/pptx-posters'),
    ];
    const plan = planConsolidation({ skills: [...family, ...outside], now }).plans.find((p) => p.from.includes('pptx-deck-context'));
    expect(plan?.into).toBe('pptx-deck');
    expect(plan?.kind).toBe('create');
    expect([...(plan?.from ?? [])].sort()).toEqual(pptx);
    expect(plan?.into).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    // Its title spells the members' word as they do: `PPTX`, not `Pptx`.
    const text = plan?.changes.find((c) => c.path === `${plan.intoDir}/SKILL.md`)?.content;
    expect(String(text)).toContain('\n# PPTX deck\n');
  });

  it('keeps the name of the skill whose copies it absorbs (`systematic-debugging`, not `…-hermes`)', () => {
    const skills = [
      readCorpusSkill('obra__superpowers/skills/systematic-debugging'),
      readCorpusSkill('alt-glitch__hermes-agent/skills/software-development/systematic-debugging', 'systematic-debugging-hermes'),
    ];
    const plan = planConsolidation({ skills, now }).plans[0];
    expect(plan?.into).toBe('systematic-debugging');
    expect(plan?.from).toEqual(['systematic-debugging-hermes']);
  });
});
