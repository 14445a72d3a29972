import type { ConsolidationPlan } from '../../core/consolidate/types.js';
import { buildCommitMessage } from '../../core/ledger/trailers.js';
import type { DetectedPattern } from '../../core/patterns/types.js';
import type { FileChange } from '../../ledger/ledger.js';
import { buildPlanCommit } from '../consolidate/apply.js';
import { buildProposalBranch, buildProposalFingerprint, type ProposalKind } from './branch.js';

/** One proposal as one commit on its own branch: what both the CLI and the Action write. */
export interface BranchProposal {
  kind: ProposalKind;
  name: string;
  branch: string;
  fingerprint: string;
  message: string;
  changes: FileChange[];
}

/** The decisions of an umbrella plan, for its fingerprint (the Action's PR memory uses the same). */
export function listUmbrellaDecisions(plan: ConsolidationPlan): string[] {
  return [`${plan.kind}:${plan.into}`, ...plan.from, ...plan.demoted.map((d) => `demote:${d}`)];
}

/** An umbrella plan (DESIGN §8) as the one commit of `skillgarden/umbrella/<name>`. */
export function buildUmbrellaBranchProposal(plan: ConsolidationPlan, runId: string): BranchProposal {
  const { message, changes } = buildPlanCommit(plan, runId);
  return {
    kind: 'umbrella',
    name: plan.into,
    branch: buildProposalBranch('umbrella', plan.into),
    fingerprint: buildProposalFingerprint('umbrella', listUmbrellaDecisions(plan)),
    message,
    changes,
  };
}

/** A drafted skill (DESIGN §7) as the one commit of `skillgarden/new/<name>`. */
export function buildDraftBranchProposal(pattern: DetectedPattern, skillsDir: string, runId: string): BranchProposal | undefined {
  const draft = pattern.draft;
  if (draft === undefined) return undefined;
  const evidence = draft.evidence;
  const message = buildCommitMessage({
    subject: `skill(create): ${draft.name} — drafted from ${pattern.sessions} agent sessions`,
    body: [
      `The tool sequence ${pattern.tools.join(' -> ')} recurs in ${pattern.sessions} sessions (pattern ${pattern.fingerprint}).`,
      ...(evidence
        ? [`Asked as: ${evidence.requests.map((r) => `"${r}"`).join('; ')}`, `Sessions: ${evidence.sessions.slice(0, 10).join(', ')}`]
        : []),
    ].join('\n'),
    trailers: { action: 'create', skills: [draft.name], actor: 'curator', run: runId, reverts: [] },
  });
  return {
    kind: 'new',
    name: draft.name,
    branch: buildProposalBranch('new', draft.name),
    fingerprint: buildProposalFingerprint('new', [pattern.fingerprint]),
    message,
    changes: [{ path: `${skillsDir}/${draft.name}/SKILL.md`, content: draft.text, expected: null }],
  };
}
