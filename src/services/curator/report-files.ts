import { join } from 'node:path';
import { renderPlansMarkdown, type PlanReport } from '../../core/consolidate/index.js';
import { renderPatternsMarkdown, type DetectedPattern } from '../../core/patterns/index.js';
import { renderEvidenceSection } from '../../core/report/evidence-section.js';
import { renderRunMarkdown } from '../../core/report/render-run.js';
import type { RunReport } from '../../core/report/run-report.js';
import { writeFileAtomic } from '../../store/files.js';
import type { DeferredTransition } from '../../core/proposals/overlap.js';
import { codeSpan } from '../../core/report/markdown-inert.js';
import { buildProposalBranch } from '../proposals/branch.js';
import { readGitDir } from '../../ledger/git-dir.js';

/** A file of a run's report folder, by its path in the folder. */
export interface ReportFile {
  path: string;
  content: string;
}

export interface RunReportFiles {
  /** REPORT.md's text (the CLI prints it, the Action's job summary is it). */
  markdown: string;
  /** run.json, REPORT.md and each drafted skill's `drafts/<name>/SKILL.md` (a proposal, never written into the library). */
  files: ReportFile[];
}

/** REPORT.md's list of skills whose due transition waits for an umbrella proposal (the PR body says it too). */
export function renderHeldBackMarkdown(deferred: readonly DeferredTransition[]): string {
  return [
    '## Held back for a pending umbrella',
    '',
    ...deferred.map(
      (d) =>
        `- ${codeSpan(d.skill)}: ${d.from} → ${d.to} would be due; the umbrella proposal ${codeSpan(buildProposalBranch('umbrella', d.umbrella))} changes it, so it is decided there`,
    ),
    '',
  ].join('\n');
}

/** The undo line of a run that committed nothing but proposed: each proposal is undone after its merge, not "nothing". */
const nothingToUndo = 'Nothing to undo: the run changed nothing.';
const proposedUndo =
  'Nothing to undo on the checked-out branch: this run only proposes. Each proposal is one commit; after merging one, `skillgarden rollback <merge-commit>` undoes it.';

/** What a curate run leaves in its report folder; `sections` are the edge's own (the Action's pull requests and previews). */
export function buildReportFiles(
  report: RunReport,
  options: { plans?: PlanReport; sections?: readonly string[]; deferred?: readonly DeferredTransition[]; proposed?: boolean } = {},
): RunReportFiles {
  const patterns = report.patterns as DetectedPattern[];
  const deferred = options.deferred ?? [];
  const rendered = renderRunMarkdown(report, [
    ...(patterns.length > 0 ? [renderPatternsMarkdown(patterns)] : []),
    ...(options.plans ? [renderPlansMarkdown(options.plans)] : []),
    ...(deferred.length > 0 ? [renderHeldBackMarkdown(deferred)] : []),
    ...(report.evidence ? [renderEvidenceSection(report.evidence)] : []),
    ...(options.sections ?? []),
  ]);
  const proposed = options.proposed ?? (options.plans?.plans.length ?? 0) > 0;
  const markdown = proposed && report.undo === null ? rendered.replace(nothingToUndo, proposedUndo) : rendered;
  const drafts = patterns.flatMap((p) => (p.draft ? [{ path: `drafts/${p.draft.name}/SKILL.md`, content: p.draft.text }] : []));
  return {
    markdown,
    files: [{ path: 'run.json', content: `${JSON.stringify(report, null, 2)}\n` }, { path: 'REPORT.md', content: markdown }, ...drafts],
  };
}

/** Each file written atomically (temp file + rename) under `dir`; returns REPORT.md's path. */
export function writeReportFiles(dir: string, files: readonly ReportFile[]): string {
  for (const file of files) {
    writeFileAtomic(join(dir, file.path), file.content);
  }
  return join(dir, 'REPORT.md');
}

/** Where a run's report goes when no folder is given: `.git/skillgarden/runs/<run id>`. */
export async function readDefaultReportDir(repoDir: string, runId: string): Promise<string> {
  return join(await readGitDir(repoDir), 'skillgarden', 'runs', runId);
}
