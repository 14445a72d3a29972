import { stringify } from 'yaml';
import { buildCommitMessage, type SkillAction } from '../core/ledger/trailers.js';
import type { RunReport, TransitionReport } from '../core/report/run-report.js';
import { buildProposalFingerprint } from '../services/proposals/branch.js';
import { buildBranchName, type ProposalKind } from './branch-name.js';
import { codeSpan, escapeMarkdown } from './markdown.js';

/** One proposal: one bot branch, one commit on the base, one pull request. */
export interface Proposal {
  kind: ProposalKind;
  branch: string;
  title: string;
  labels: string[];
  /** Stable over re-runs that decide the same thing: how a declined proposal is recognised. */
  fingerprint: string;
  commitMessage: string;
  /** The commit's trailer block, repeated last in the PR body so a squash merge keeps the ledger. */
  trailerBlock: string;
  /** Markdown list items: what changes and why. */
  reasons: string[];
  /** DESIGN §8 structured YAML (`prunings`, `consolidations`, …). */
  structured: string;
}

const kindLabel: Record<ProposalKind, string> = { lifecycle: 'lifecycle', umbrella: 'umbrella', new: 'new-skill' };

/** Least consequential first: the parser keeps the last `Skill-Action`, so it reads the weightiest. */
const actionOrder: { to: TransitionReport['to']; action: SkillAction }[] = [
  { to: 'active', action: 'reactivate' },
  { to: 'stale', action: 'mark-stale' },
  { to: 'archived', action: 'archive' },
];

/** All lifecycle transitions of a run as one proposal, or null when the run made none. */
export function buildLifecycleProposal(report: RunReport, extraLabels: readonly string[] = []): Proposal | null {
  const transitions = report.transitions;
  if (transitions.length === 0) return null;
  const actions = actionOrder.filter((o) => transitions.some((t) => t.to === o.to)).map((o) => o.action);
  const counts = actionOrder.map((o) => [o.action, transitions.filter((t) => t.to === o.to).length] as const).filter(([, n]) => n > 0);
  const summary = counts
    .map(([action, n]) => `${n} ${action === 'mark-stale' ? 'marked stale' : action === 'archive' ? 'archived' : 'reactivated'}`)
    .join(', ');
  const fingerprint = buildProposalFingerprint(
    'lifecycle',
    transitions.map((t) => `${t.skill}:${t.from}>${t.to}`),
  );
  const message = buildLifecycleMessage(report, actions, summary, fingerprint);
  return {
    kind: 'lifecycle',
    branch: buildBranchName('lifecycle'),
    title: `skillgarden: lifecycle — ${summary}`,
    labels: ['skillgarden', kindLabel.lifecycle, ...extraLabels],
    fingerprint,
    commitMessage: message,
    trailerBlock: readTrailerBlock(message),
    reasons: transitions.map(
      (t) =>
        `${codeSpan(t.skill)}: ${t.from} → **${t.to}** — ${escapeMarkdown(t.reason)} (last activity ${t.anchor.slice(0, 10)}, ${escapeMarkdown(t.anchor_source)})`,
    ),
    structured: stringify({
      prunings: transitions.filter((t) => t.to !== 'active').map((t) => ({ name: t.skill, to: t.to, reason: t.reason })),
      reactivations: transitions.filter((t) => t.to === 'active').map((t) => ({ name: t.skill, reason: t.reason })),
    }),
  };
}

function buildLifecycleMessage(report: RunReport, actions: SkillAction[], summary: string, fingerprint: string): string {
  const last = actions.at(-1) as SkillAction;
  const body = [
    ...report.transitions.map((t) => `- ${t.skill}: ${t.from} -> ${t.to} (${t.reason})`),
    '',
    `Proposed by curator run ${report.run_id}; proposal ${fingerprint}.`,
  ].join('\n');
  const single = buildCommitMessage({
    subject: `skill(curate): lifecycle — ${summary}`,
    body,
    trailers: { action: last, skills: report.transitions.map((t) => t.skill), actor: 'curator', run: report.run_id, reverts: [] },
  });
  // One Skill-Action line per kind of transition; git keeps them all, our parser the last.
  const extra = actions
    .slice(0, -1)
    .map((a) => `Skill-Action: ${a}\n`)
    .join('');
  return single.replace(`\nSkill-Action: ${last}\n`, `\n${extra}Skill-Action: ${last}\n`);
}

function readTrailerBlock(message: string): string {
  const paragraphs = message.trimEnd().split('\n\n');
  return paragraphs.at(-1) ?? '';
}
