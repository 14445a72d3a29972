import type { ConsolidationPlan, PlanReport } from '../core/consolidate/index.js';
import type { DetectedPattern } from '../core/patterns/index.js';
import type { DeferredTransition } from '../core/proposals/overlap.js';
import type { RunReport } from '../core/report/run-report.js';
import { readConfig } from '../services/curator/read-library.js';
import { runCurator } from '../services/curator/run-curator.js';
import {
  buildDraftBranchProposal,
  buildProposalFingerprint,
  buildUmbrellaBranchProposal,
  listUmbrellaDecisions,
  type BranchProposal,
} from '../services/proposals/index.js';
import { readPrimaryRoot } from '../store/layout/discover-library.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo } from './io.js';
import { codeSpan } from './markdown.js';

/** One curator run as the Action needs it: the report, the umbrella plans behind its `plans`, the lifecycle proposal. */
export interface CuratorPass {
  report: RunReport;
  plans?: PlanReport;
  umbrellas: ConsolidationPlan[];
  /** With `propose`: the lifecycle transitions as the shared writer's one proposal (undefined: none). */
  lifecycle?: BranchProposal;
  /** Transitions left out of the lifecycle because an umbrella proposal of this run changes the skill. */
  deferred: DeferredTransition[];
}

export interface PassOptions {
  dryRun: boolean;
  scheduled: boolean;
  /** Plan umbrellas in this pass. */
  plan: boolean;
  /** The lifecycle as a proposal (nothing committed) rather than one commit per transition. */
  propose?: boolean;
  /** Umbrella fingerprints a person declined: they hold no skill back from the lifecycle. */
  declinedUmbrellas?: ReadonlySet<string>;
}

/** An umbrella plan's fingerprint: the shared writer's, as its pull request's hidden marker holds it. */
export function umbrellaFingerprint(plan: ConsolidationPlan): string {
  return buildProposalFingerprint('umbrella', listUmbrellaDecisions(plan));
}

/**
 * The curator with the step's inputs over the repository's config: umbrellas
 * (`consolidate`), transcripts and the draft limits. Transcript globs resolve
 * against the workflow's checkout, where a workflow put its logs, never
 * against the scratch clone, which holds only committed files.
 */
export async function runCuratorPass(inputs: ActionInputs, repoDir: string, options: PassOptions): Promise<CuratorPass> {
  const declined = options.declinedUmbrellas;
  const result = await runCurator({
    repoDir,
    now: inputs.now,
    scheduled: options.scheduled,
    dryRun: options.dryRun,
    deferFirstRun: inputs.pushTransitions,
    transcriptsDir: inputs.workspace,
    draftLimits: inputs.draftLimits,
    ...(options.propose ? { propose: true } : {}),
    ...(declined && declined.size > 0 ? { isDeclinedUmbrella: (plan: ConsolidationPlan) => declined.has(umbrellaFingerprint(plan)) } : {}),
    ...(options.plan ? (inputs.consolidate === undefined ? {} : { consolidate: inputs.consolidate }) : { consolidate: false }),
    ...(inputs.transcripts.length > 0 ? { transcripts: inputs.transcripts } : {}),
  });
  const { report, plans, umbrellas, lifecycle, deferred } = result;
  report.repo = inputs.workspace;
  return {
    report,
    ...(plans ? { plans } : {}),
    umbrellas: umbrellas ?? [],
    ...(lifecycle ? { lifecycle: { ...lifecycle, labels: [...lifecycle.labels, ...inputs.extraLabels] } } : {}),
    deferred,
  };
}

/** A transcripts glob that matches nothing is a mistake in a workflow, not a quiet week: say which glob, and where it was looked for. */
export function warnEmptyTranscripts(report: RunReport, inputs: ActionInputs, io: ActionIo): void {
  for (const w of report.warnings.filter((x) => x.code === 'detect/no-match'))
    io.warning(
      `transcripts: "${w.file ?? ''}" matched no file in ${inputs.workspace} (globs resolve against the repository's checkout). Check the glob, or that the step that writes the transcripts ran before this one.`,
    );
}

export interface ExtraJobs {
  jobs: BranchProposal[];
  /** The kinds asked for this run (their stale pull requests are withdrawn when nothing of that kind is proposed). */
  kinds: ('umbrella' | 'new')[];
}

/** The umbrellas and drafted skills a pass found, each as the shared writer's proposal, with the step's extra labels. */
export function buildExtraJobs(inputs: ActionInputs, repoDir: string, pass: CuratorPass): ExtraJobs {
  const { config } = readConfig(repoDir);
  const consolidate = inputs.consolidate ?? config.consolidate;
  const transcripts = inputs.transcripts.length > 0 ? inputs.transcripts : config.transcripts;
  const kinds: ExtraJobs['kinds'] = [...(consolidate ? ['umbrella' as const] : []), ...(transcripts.length > 0 ? ['new' as const] : [])];
  if (kinds.length === 0) return { jobs: [], kinds };
  const runId = pass.report.run_id;
  const skillsDir = inputs.skillsDir || readPrimaryRoot(repoDir, config.skills_dir);
  const umbrellas = consolidate ? pass.umbrellas.map((plan) => withHeldBack(buildUmbrellaBranchProposal(plan, runId), pass.deferred)) : [];
  const drafts = (pass.report.patterns as DetectedPattern[]).flatMap(
    (pattern) => buildDraftBranchProposal(pattern, skillsDir, runId) ?? [],
  );
  return { jobs: [...umbrellas, ...drafts].map((p) => ({ ...p, labels: [...p.labels, ...inputs.extraLabels] })), kinds };
}

/** Proposals never overlap: the umbrella's body says which of its skills the lifecycle proposal leaves to it (and the lifecycle's says so too). */
function withHeldBack(proposal: BranchProposal, deferred: readonly DeferredTransition[]): BranchProposal {
  const held = deferred.filter((d) => d.umbrella === proposal.name);
  if (held.length === 0) return proposal;
  return {
    ...proposal,
    reasons: [
      ...proposal.reasons,
      ...held.map(
        (d) =>
          `${codeSpan(d.skill)} would be due ${d.from} → ${d.to}: the lifecycle proposal leaves it to this one (decided here, looked at again once this is merged or closed)`,
      ),
    ],
  };
}
