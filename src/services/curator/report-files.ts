import { join } from 'node:path';
import { renderPlansMarkdown, type PlanReport } from '../../core/consolidate/index.js';
import { renderPatternsMarkdown, type DetectedPattern } from '../../core/patterns/index.js';
import { renderRunMarkdown } from '../../core/report/render-run.js';
import type { RunReport } from '../../core/report/run-report.js';
import { writeFileAtomic } from '../../store/files.js';
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

/** What a curate run leaves in its report folder; `sections` are the edge's own (the Action's pull requests and previews). */
export function buildReportFiles(report: RunReport, options: { plans?: PlanReport; sections?: readonly string[] } = {}): RunReportFiles {
  const patterns = report.patterns as DetectedPattern[];
  const markdown = renderRunMarkdown(report, [
    ...(patterns.length > 0 ? [renderPatternsMarkdown(patterns)] : []),
    ...(options.plans ? [renderPlansMarkdown(options.plans)] : []),
    ...(options.sections ?? []),
  ]);
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
