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
      ],
      structured: stringify({
        patterns: [
          {
            name: pattern.draft.name,
            tools: pattern.tools,
            sessions: pattern.sessions,
            confidence: Number(pattern.confidence.toFixed(3)),
            fingerprint: pattern.fingerprint,
          },
        ],
      }),
    },
    report: ['### Drafted SKILL.md', '', '````markdown', pattern.draft.text.trimEnd(), '````', ''].join('\n'),
  };
}
