import type { RunReport } from '../core/report/run-report.js';
import { runCurate, type ProposalRef, type RunCurateResult } from '../services/curator/curate.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo } from './io.js';

/** The Action's one curator run: the service's result, its report naming the workflow's checkout. */
export type CuratorPass = RunCurateResult;

export interface PassOptions {
  dryRun: boolean;
  scheduled: boolean;
  /** The lifecycle as a proposal (nothing committed) rather than one commit per transition. */
  propose?: boolean;
  /** Which of these proposals a person declined (closed unmerged): their pull requests say. */
  readDeclined: (proposals: readonly ProposalRef[]) => Promise<ReadonlySet<string>>;
}

/**
 * The curator with the step's inputs over the repository's config: umbrellas
 * (`consolidate`), transcripts, the draft limits and labels. Transcript globs
 * resolve against the workflow's checkout, where a workflow put its logs,
 * never against the scratch clone, which holds only committed files.
 */
export async function runCuratorPass(inputs: ActionInputs, repoDir: string, options: PassOptions): Promise<CuratorPass> {
  const pass = await runCurate({
    repoDir,
    now: inputs.now,
    scheduled: options.scheduled,
    dryRun: options.dryRun,
    deferFirstRun: inputs.pushTransitions,
    transcriptsDir: inputs.workspace,
    draftLimits: inputs.draftLimits,
    readDeclined: options.readDeclined,
    // The workflow's checkout was found not empty (runCurateMode); the scratch clone is its committed tree.
    allowEmpty: true,
    labels: inputs.extraLabels,
    ...(inputs.skillsDir ? { draftsRoot: inputs.skillsDir } : {}),
    ...(options.propose ? { propose: true } : {}),
    ...(inputs.consolidate === undefined ? {} : { consolidate: inputs.consolidate }),
    ...(inputs.transcripts.length > 0 ? { transcripts: inputs.transcripts } : {}),
  });
  pass.report.repo = inputs.workspace;
  return pass;
}

/** A transcripts glob that matches nothing is a mistake in a workflow, not a quiet week: say which glob, and where it was looked for. */
export function warnEmptyTranscripts(report: RunReport, inputs: ActionInputs, io: ActionIo): void {
  for (const w of report.warnings.filter((x) => x.code === 'detect/no-match'))
    io.warning(
      `transcripts: "${w.file ?? ''}" matched no file in ${inputs.workspace} (globs resolve against the repository's checkout). Check the glob, or that the step that writes the transcripts ran before this one.`,
    );
}
