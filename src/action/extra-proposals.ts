import { stringify } from 'yaml';
import { buildPlanReport, describePlan, renderPlansMarkdown } from '../core/consolidate/index.js';
import type { ConsolidationPlan } from '../core/consolidate/types.js';
import type { DetectedPattern } from '../core/patterns/types.js';
import { buildBranchName } from './branch-name.js';
import { codeSpan, escapeMarkdown } from './markdown.js';
import { buildFingerprint, type Proposal } from './proposal.js';

/** A proposal whose one commit is made later, on demand: its trailers are read back from that commit. */
export interface PendingProposal {
  proposal: Omit<Proposal, 'commitMessage' | 'trailerBlock'>;
  /** The report section for the PR body. */
  report: string;
}

/** One umbrella plan (DESIGN §8) as one proposal on `skillgarden/umbrella/<name>`. */
export function buildUmbrellaProposal(plan: ConsolidationPlan, extraLabels: readonly string[]): PendingProposal {
  const report = buildPlanReport(
    { plans: [plan], dropped: [], skipped: [] },
    { prunings: plan.archived.map((a) => ({ name: a.name, reason: `absorbed into ${plan.into}` })) },
  );
  return {
    proposal: {
      kind: 'umbrella',
      branch: buildBranchName('umbrella', plan.into),
      title: `skillgarden: ${plan.kind === 'create' ? 'new umbrella' : 'merge into'} ${plan.into} — ${plan.from.length} skill(s)`,
      labels: ['skillgarden', 'umbrella', ...extraLabels],
      fingerprint: buildFingerprint('umbrella', [`${plan.kind}:${plan.into}`, ...plan.from, ...plan.demoted.map((d) => `demote:${d}`)]),
      reasons: [
        escapeMarkdown(describePlan(plan)),
        ...plan.archived.map((a) => `archive ${codeSpan(a.from)} → ${codeSpan(a.to)} (restorable)`),
        ...(plan.rewritten.length > 0 ? [`references rewritten in ${plan.rewritten.map(codeSpan).join(', ')}`] : []),
      ],
      structured: stringify({ consolidations: report.consolidations, prunings: report.prunings }, { lineWidth: 0 }),
    },
    report: renderPlansMarkdown(report),
  };
}

/** One drafted skill (DESIGN §7) as one proposal on `skillgarden/new/<name>`. */
export function buildNewSkillProposal(
  pattern: DetectedPattern & { draft: NonNullable<DetectedPattern['draft']> },
  extraLabels: readonly string[],
): PendingProposal {
  const tools = pattern.tools.map(codeSpan).join(' → ');
  return {
    proposal: {
      kind: 'new',
      branch: buildBranchName('new', pattern.draft.name),
      title: `skillgarden: new skill ${pattern.draft.name} from a repeated pattern`,
      labels: ['skillgarden', 'new-skill', ...extraLabels],
      fingerprint: buildFingerprint('new', [pattern.fingerprint]),
      reasons: [
        `the tool sequence ${tools} recurs in ${pattern.sessions} session(s) (confidence ${pattern.confidence.toFixed(2)}); no skill covers it yet`,
        ...renderEvidence(pattern.draft.evidence),
        ...(pattern.draft.absorbs && pattern.draft.absorbs.length > 0
          ? [`folds in the nested or overlapping patterns ${pattern.draft.absorbs.map(codeSpan).join(', ')} of the same sessions`]
          : []),
      ],
      structured: stringify({
        patterns: [
          {
            name: pattern.draft.name,
            tools: pattern.tools,
            sessions: pattern.sessions,
            confidence: Number(pattern.confidence.toFixed(3)),
            fingerprint: pattern.fingerprint,
            ...(pattern.draft.evidence
              ? {
                  session_ids: pattern.draft.evidence.sessions,
                  transcripts: pattern.draft.evidence.files,
                  first_seen: pattern.draft.evidence.first_seen,
                  last_seen: pattern.draft.evidence.last_seen,
                }
              : {}),
          },
        ],
      }),
    },
    report: ['### Drafted SKILL.md', '', '````markdown', pattern.draft.text.trimEnd(), '````', ''].join('\n'),
  };
}

/** A draft's evidence in a reviewer's words: what people asked, where, when, how it ends. */
function renderEvidence(evidence: NonNullable<DetectedPattern['draft']>['evidence']): string[] {
  if (evidence === undefined) return [];
  const when = evidence.first_seen && evidence.last_seen ? `, first seen ${evidence.first_seen}, last seen ${evidence.last_seen}` : '';
  return [
    `people asked for it in words like ${evidence.task_words.slice(0, 6).map(codeSpan).join(', ')}: ${evidence.requests.map((r) => `"${escapeMarkdown(r)}"`).join('; ')}`,
    `sessions ${evidence.sessions.slice(0, 10).map(codeSpan).join(', ')}${evidence.sessions.length > 10 ? ` and ${evidence.sessions.length - 10} more` : ''} in ${evidence.files.slice(0, 10).map(codeSpan).join(', ')}${when}`,
    ...(evidence.ending
      ? [
          `the sequence ends with ${{ tests: 'the tests run', commit: 'a commit', release: 'a release', submit: 'a submission' }[evidence.ending]}`,
        ]
      : []),
  ];
}
