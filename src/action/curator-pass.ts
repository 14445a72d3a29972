import type { ConsolidationPlan, PlanReport } from '../core/consolidate/index.js';
import type { DetectedPattern } from '../core/patterns/index.js';
import type { RunReport } from '../core/report/run-report.js';
import { readConfig } from '../services/curator/read-library.js';
import { runCurator } from '../services/curator/run-curator.js';
import { readPrimaryRoot } from '../store/layout/discover-library.js';
import { buildNewSkillProposal, buildUmbrellaProposal, type PendingProposal } from './extra-proposals.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo } from './io.js';

/** One curator run as the Action needs it: the report, and the umbrella plans behind its `plans`. */
export interface CuratorPass {
  report: RunReport;
  plans?: PlanReport;
  umbrellas: ConsolidationPlan[];
}

export interface PassOptions {
  dryRun: boolean;
  scheduled: boolean;
  /** Plan umbrellas in this pass (the proposal path plans once, in its first, dry pass). */
  plan: boolean;
}

/**
 * The curator with the step's inputs over the repository's config: umbrellas
 * (`consolidate`), transcripts and the draft limits. Transcript globs resolve
 * against the workflow's checkout, where a workflow put its logs, never
 * against the scratch clone, which holds only committed files.
 */
export async function runCuratorPass(inputs: ActionInputs, repoDir: string, options: PassOptions): Promise<CuratorPass> {
  const { report, plans, umbrellas } = await runCurator({
    repoDir,
    now: inputs.now,
    scheduled: options.scheduled,
    dryRun: options.dryRun,
    deferFirstRun: inputs.pushTransitions,
    transcriptsDir: inputs.workspace,
    draftLimits: inputs.draftLimits,
    ...(options.plan ? (inputs.consolidate === undefined ? {} : { consolidate: inputs.consolidate }) : { consolidate: false }),
    ...(inputs.transcripts.length > 0 ? { transcripts: inputs.transcripts } : {}),
  });
  return { report, ...(plans ? { plans } : {}), umbrellas: umbrellas ?? [] };
}

/** A transcripts glob that matches nothing is a mistake in a workflow, not a quiet week: say which glob, and where it was looked for. */
export function warnEmptyTranscripts(report: RunReport, inputs: ActionInputs, io: ActionIo): void {
  for (const w of report.warnings.filter((x) => x.code === 'detect/no-match'))
    io.warning(
      `transcripts: "${w.file ?? ''}" matched no file in ${inputs.workspace} (globs resolve against the repository's checkout). Check the glob, or that the step that writes the transcripts ran before this one.`,
    );
}

export interface ExtraJobs {
  jobs: PendingProposal[];
  /** The kinds asked for this run (their stale pull requests are withdrawn when nothing of that kind is proposed). */
  kinds: ('umbrella' | 'new')[];
}

/** The umbrellas and drafted skills a pass found, each as a proposal of its own. */
export function buildExtraJobs(inputs: ActionInputs, repoDir: string, pass: CuratorPass): ExtraJobs {
  const { config } = readConfig(repoDir);
  const consolidate = inputs.consolidate ?? config.consolidate;
  const transcripts = inputs.transcripts.length > 0 ? inputs.transcripts : config.transcripts;
  const kinds: ExtraJobs['kinds'] = [...(consolidate ? ['umbrella' as const] : []), ...(transcripts.length > 0 ? ['new' as const] : [])];
  if (kinds.length === 0) return { jobs: [], kinds };
  const runId = pass.report.run_id;
  const skillsDir = inputs.skillsDir || readPrimaryRoot(repoDir, config.skills_dir);
  const umbrellas = consolidate ? pass.umbrellas.map((plan) => buildUmbrellaProposal(plan, runId, inputs.extraLabels)) : [];
  const drafts = (pass.report.patterns as DetectedPattern[]).flatMap(
    (pattern) => buildNewSkillProposal(pattern, { skillsDir, runId, extraLabels: inputs.extraLabels }) ?? [],
  );
  return { jobs: [...umbrellas, ...drafts], kinds };
}
