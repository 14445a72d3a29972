import { describePlan } from '../../core/consolidate/index.js';
import type { ConsolidationPlan } from '../../core/consolidate/types.js';
import { skillFileName } from '../../core/layout.js';
import { codeSpan } from '../../core/report/markdown-inert.js';
import { splitSkill } from '../../core/skill/index.js';

/** What a reviewer of an umbrella pull request reads: the reasons (list items) and the report section. */
export interface UmbrellaReview {
  reasons: string[];
  report: string;
}

/** A fence no backtick run inside the text can close. */
function fence(text: string, info = ''): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const mark = '`'.repeat(longest + 1);
  return `${mark}${info}\n${text.trimEnd()}\n${mark}`;
}

function umbrellaText(plan: ConsolidationPlan): string | undefined {
  const change = plan.changes.find((c) => c.path === `${plan.intoDir}/${skillFileName}`);
  return typeof change?.content === 'string' ? change.content : undefined;
}

/** One line per member: what of it the umbrella holds. */
function listContributions(plan: ConsolidationPlan): string[] {
  const collapsed = new Set(plan.collapsed ?? []);
  const near = new Set(plan.nearCopies ?? []);
  const demoted = new Set(plan.demoted);
  return plan.from.map((name) => {
    const archive = plan.archived.find((a) => a.name === name);
    const kept = archive ? `; archived whole at ${codeSpan(archive.to)}` : '';
    if (collapsed.has(name)) return `- ${codeSpan(name)}: its text is in the umbrella already (a copy, names aside): nothing copied${kept}`;
    if (near.has(name)) return `- ${codeSpan(name)}: mostly the same text: a section with only the paragraphs that differ${kept}`;
    if (demoted.has(name))
      return `- ${codeSpan(name)}: a short section; its long body moved to ${codeSpan(`references/${name}.md`)}${kept}`;
    return `- ${codeSpan(name)}: a section of the umbrella with its whole body${kept}`;
  });
}

/**
 * The review text of an umbrella proposal (issue #29): the resulting
 * frontmatter (with its description), what each member contributes, what to
 * check by hand, and how to undo the merge. The plan's describePlan already
 * writes its names as code spans: it is shown as it is, never escaped again.
 */
export function buildUmbrellaReview(plan: ConsolidationPlan): UmbrellaReview {
  const text = umbrellaText(plan);
  const sections = text === undefined ? undefined : splitSkill(text);
  const frontmatter = sections?.frontmatter === 'ok' ? sections.yaml : undefined;
  const what = plan.kind === 'create' ? `the new skill ${codeSpan(plan.into)}` : `the existing skill ${codeSpan(plan.into)}`;
  const report = [
    `### ${plan.from.length} skill(s) into ${what}`,
    '',
    '#### The result',
    '',
    `${codeSpan(`${plan.intoDir}/${skillFileName}`)} begins:`,
    '',
    ...(frontmatter === undefined
      ? ['(the umbrella keeps its SKILL.md as it was)']
      : [fence(`---\n${frontmatter.trimEnd()}\n---`, 'yaml')]),
    '',
    '#### What each member contributes',
    '',
    ...listContributions(plan),
    ...(plan.changes.some((c) => c.path === `${plan.intoDir}/references/NOTICE.md`)
      ? ['', `Members by other authors or under other licenses keep their terms: see ${codeSpan('references/NOTICE.md')}.`]
      : []),
    ...(plan.rewritten.length > 0 ? ['', `References rewritten in ${plan.rewritten.map(codeSpan).join(', ')}.`] : []),
    ...(plan.mentionsLeft.length > 0
      ? ['', `**To fix by hand**: skills nobody may touch mention a merged name: ${plan.mentionsLeft.map(codeSpan).join(', ')}.`]
      : []),
    ...((plan.pointers ?? []).length > 0
      ? [
          '',
          '**To reword**: these lines still point at a skill this merge archives:',
          '',
          ...(plan.pointers ?? []).map((p) => `- ${codeSpan(p)}`),
        ]
      : []),
    '',
    '#### Undo',
    '',
    'Before merging: close this pull request, and this exact proposal is not made again.',
    `After merging: \`skillgarden rollback <merge-commit>\` reverts it as one commit (the umbrella as it was, every archived skill back in place); it refuses, changing nothing, if a file changed since.`,
    '',
  ].join('\n');
  const reasons = [
    describePlan(plan),
    ...plan.archived.map((a) => `archive ${codeSpan(a.from)} → ${codeSpan(a.to)} (restorable)`),
    ...(plan.rewritten.length > 0 ? [`references rewritten in ${plan.rewritten.map(codeSpan).join(', ')}`] : []),
  ];
  return { reasons, report };
}
