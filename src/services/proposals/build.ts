import { stringify } from 'yaml';
import { buildPlanReport } from '../../core/consolidate/index.js';
import type { ConsolidationPlan } from '../../core/consolidate/types.js';
import { serializeJson } from '../../core/evals/build-evals.js';
import { triggerQueriesFile } from '../../core/evals/types.js';
import { evalsFile } from '../../core/evals/validate-evals.js';
import { buildCommitMessage } from '../../core/ledger/trailers.js';
import type { DetectedPattern } from '../../core/patterns/types.js';
import { codeSpan, escapeMarkdown } from '../../core/report/markdown-inert.js';
import { buildPlanCommit } from '../consolidate/apply.js';
import { buildProposalBranch, buildProposalFingerprint } from './branch.js';
import { kindLabels, readTrailerBlock, type BranchProposal } from './proposal.js';
import { buildUmbrellaReview } from './umbrella-review.js';

export type { BranchProposal } from './proposal.js';

/** The decisions of an umbrella plan, for its fingerprint (the Action's PR memory uses the same). */
export function listUmbrellaDecisions(plan: ConsolidationPlan): string[] {
  return [`${plan.kind}:${plan.into}`, ...plan.from, ...plan.demoted.map((d) => `demote:${d}`)];
}

/** An umbrella plan (DESIGN §8) as the one commit of `skillgarden/umbrella/<name>`, with its review text. */
export function buildUmbrellaBranchProposal(plan: ConsolidationPlan, runId: string): BranchProposal {
  const { message, changes } = buildPlanCommit(plan, runId);
  const report = buildPlanReport(
    { plans: [plan], dropped: [], skipped: [] },
    { prunings: plan.archived.map((a) => ({ name: a.name, reason: `absorbed into ${plan.into}` })) },
  );
  return {
    kind: 'umbrella',
    name: plan.into,
    branch: buildProposalBranch('umbrella', plan.into),
    fingerprint: buildProposalFingerprint('umbrella', listUmbrellaDecisions(plan)),
    title: `skillgarden: ${plan.kind === 'create' ? 'new umbrella' : 'merge into'} ${plan.into} — ${plan.from.length} skill(s)`,
    labels: ['skillgarden', kindLabels.umbrella],
    message,
    trailerBlock: readTrailerBlock(message),
    ...buildUmbrellaReview(plan),
    structured: stringify({ consolidations: report.consolidations, prunings: report.prunings }, { lineWidth: 0 }),
    skills: [plan.into, ...plan.from],
    changes,
  };
}

type Draft = NonNullable<DetectedPattern['draft']>;

/** A drafted skill (DESIGN §7) as the one commit of `skillgarden/new/<name>`, with its evidence; undefined for a pattern without a draft. */
export function buildDraftBranchProposal(pattern: DetectedPattern, skillsDir: string, runId: string): BranchProposal | undefined {
  const draft = pattern.draft;
  if (draft === undefined) return undefined;
  const evidence = draft.evidence;
  const message = buildCommitMessage({
    subject: `skill(create): ${draft.name} — drafted from ${pattern.sessions} agent sessions`,
    body: [
      `The tool sequence ${pattern.tools.join(' -> ')} recurs in ${pattern.sessions} sessions (pattern ${pattern.fingerprint}, confidence ${pattern.confidence.toFixed(2)}).`,
      ...(evidence
        ? [`Asked as: ${evidence.requests.map((r) => `"${r}"`).join('; ')}`, `Sessions: ${evidence.sessions.slice(0, 10).join(', ')}`]
        : []),
    ].join('\n'),
    trailers: { action: 'create', skills: [draft.name], actor: 'curator', run: runId, reverts: [] },
  });
  const tools = pattern.tools.map(codeSpan).join(' → ');
  return {
    kind: 'new',
    name: draft.name,
    branch: buildProposalBranch('new', draft.name),
    fingerprint: buildProposalFingerprint('new', [pattern.fingerprint]),
    title: `skillgarden: new skill ${draft.name} from a repeated pattern`,
    labels: ['skillgarden', kindLabels.new],
    message,
    trailerBlock: readTrailerBlock(message),
    reasons: [
      `the tool sequence ${tools} recurs in ${pattern.sessions} session(s) (confidence ${pattern.confidence.toFixed(2)}); no skill covers it yet`,
      ...renderEvidence(evidence),
      ...(draft.evals
        ? [
            `carries ${codeSpan(evalsFile)} (${draft.evals.evals.evals.length} test case(s) from the requests, expected output how those sessions ended) and ${codeSpan(triggerQueriesFile)} (${draft.evals.trigger_queries.filter((q) => q.should_trigger).length} should-trigger, ${draft.evals.trigger_queries.filter((q) => !q.should_trigger).length} should-not-trigger queries), to run the with/without comparison`,
          ]
        : []),
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
          ...(evidence
            ? {
                session_ids: evidence.sessions,
                transcripts: evidence.files,
                first_seen: evidence.first_seen,
                last_seen: evidence.last_seen,
              }
            : {}),
        },
      ],
    }),
    report: ['### Drafted SKILL.md', '', '````markdown', draft.text.trimEnd(), '````', ''].join('\n'),
    skills: [draft.name],
    changes: [
      { path: `${skillsDir}/${draft.name}/SKILL.md`, content: draft.text, expected: null },
      ...(draft.evals
        ? [
            { path: `${skillsDir}/${draft.name}/${evalsFile}`, content: serializeJson(draft.evals.evals), expected: null },
            {
              path: `${skillsDir}/${draft.name}/${triggerQueriesFile}`,
              content: serializeJson(draft.evals.trigger_queries),
              expected: null,
            },
          ]
        : []),
    ],
  };
}

/** A draft's evidence in a reviewer's words: what people asked, where, when, how it ends. */
function renderEvidence(evidence: Draft['evidence']): string[] {
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
