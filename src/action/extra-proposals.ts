import { stringify } from 'yaml';
import { buildPlanReport, describePlan, renderPlansMarkdown } from '../core/consolidate/index.js';
import type { ConsolidationPlan } from '../core/consolidate/types.js';
import type { DetectedPattern } from '../core/patterns/types.js';
import { buildDraftBranchProposal, buildUmbrellaBranchProposal, type BranchProposal } from '../services/proposals/index.js';
import { codeSpan, escapeMarkdown } from './markdown.js';
import type { Proposal } from './proposal.js';

/**
 * A proposal whose one commit is made later, on demand: its branch, fingerprint,
 * message and file changes are the CLI's local proposal writer's (`commit`);
 * what GitHub shows of it (title, labels, reasons) is the Action's.
 */
export interface PendingProposal {
  proposal: Omit<Proposal, 'commitMessage' | 'trailerBlock'>;
  /** The report section for the PR body. */
  report: string;
  commit: BranchProposal;
  /** The skills it changes, archives or creates: what another proposal must not also decide. */
  skills: string[];
}

/** One umbrella plan (DESIGN §8) as one proposal on `skillgarden/umbrella/<name>`. */
export function buildUmbrellaProposal(plan: ConsolidationPlan, runId: string, extraLabels: readonly string[]): PendingProposal {
  const commit = buildUmbrellaBranchProposal(plan, runId);
  const report = buildPlanReport(
    { plans: [plan], dropped: [], skipped: [] },
    { prunings: plan.archived.map((a) => ({ name: a.name, reason: `absorbed into ${plan.into}` })) },
  );
  return {
    commit,
    skills: [plan.into, ...plan.from],
    proposal: {
      kind: 'umbrella',
      branch: commit.branch,
      title: `skillgarden: ${plan.kind === 'create' ? 'new umbrella' : 'merge into'} ${plan.into} — ${plan.from.length} skill(s)`,
      labels: ['skillgarden', 'umbrella', ...extraLabels],
      fingerprint: commit.fingerprint,
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

/** One drafted skill (DESIGN §7) as one proposal on `skillgarden/new/<name>`; undefined for a pattern without a draft. */
export function buildNewSkillProposal(
  pattern: DetectedPattern,
  options: { skillsDir: string; runId: string; extraLabels: readonly string[] },
): PendingProposal | undefined {
  const commit = buildDraftBranchProposal(pattern, options.skillsDir, options.runId);
  if (!commit || !pattern.draft) return undefined;
  const { draft } = pattern;
  const extraLabels = options.extraLabels;
  const tools = pattern.tools.map(codeSpan).join(' → ');
  return {
    commit,
    skills: [draft.name],
    proposal: {
      kind: 'new',
      branch: commit.branch,
      title: `skillgarden: new skill ${draft.name} from a repeated pattern`,
      labels: ['skillgarden', 'new-skill', ...extraLabels],
      fingerprint: commit.fingerprint,
      reasons: [
        `the tool sequence ${tools} recurs in ${pattern.sessions} session(s) (confidence ${pattern.confidence.toFixed(2)}); no skill covers it yet`,
        ...renderEvidence(draft.evidence),
        ...(draft.absorbs && draft.absorbs.length > 0
          ? [`folds in the nested or overlapping patterns ${draft.absorbs.map(codeSpan).join(', ')} of the same sessions`]
          : []),
      ],
      structured: stringify({
        patterns: [
          {
            name: draft.name,
            tools: pattern.tools,
            sessions: pattern.sessions,
            confidence: Number(pattern.confidence.toFixed(3)),
            fingerprint: pattern.fingerprint,
            ...(draft.evidence
              ? {
                  session_ids: draft.evidence.sessions,
                  transcripts: draft.evidence.files,
                  first_seen: draft.evidence.first_seen,
                  last_seen: draft.evidence.last_seen,
                }
              : {}),
          },
        ],
      }),
    },
    report: ['### Drafted SKILL.md', '', '````markdown', draft.text.trimEnd(), '````', ''].join('\n'),
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
