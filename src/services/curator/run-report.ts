import type { LifecyclePlan } from '../../core/lifecycle/index.js';
import { countsAfter, transitionReport, type RunReport, type StateCounts } from '../../core/report/run-report.js';
import type { LibrarySnapshot } from './read-library.js';
import type { CurateOptions } from './curate-options.js';

/** The run's report before anything is written: the plan's counters and skips, the snapshot's findings. */
export function baseReport(input: {
  runId: string;
  options: CurateOptions;
  gates: RunReport['gates'];
  before: StateCounts;
  plan: LifecyclePlan;
  forgotten: string[];
  snapshot: LibrarySnapshot;
}): RunReport {
  return {
    version: 1,
    run_id: input.runId,
    time: input.options.now.toISOString(),
    repo: input.options.repoDir,
    dry_run: input.options.dryRun ?? false,
    status: 'completed',
    gates: input.gates,
    counts: { before: input.before, after: input.before },
    counters: input.plan.counts,
    transitions: [],
    skipped: input.plan.decisions.flatMap((d) =>
      d.kind === 'skip' && d.reason !== 'not-curated' ? [{ skill: d.name, reason: d.reason, detail: d.detail }] : [],
    ),
    seeded: input.plan.seeds,
    forgotten: input.forgotten,
    patterns: [],
    plans: [],
    prs: [],
    errors: input.snapshot.findings.filter((f) => f.severity === 'error').map((f) => ({ code: f.code, message: f.message, file: f.file })),
    warnings: input.snapshot.findings
      .filter((f) => f.severity !== 'error')
      .map((f) => ({ code: f.code, message: f.message, file: f.file })),
    undo: null,
    commits: [],
    timings_ms: {},
  };
}

/** A run that writes nothing (a dry run, a proposal) reports the transitions it plans. */
export function withPlannedTransitions(report: RunReport, plan: LifecyclePlan): RunReport {
  const transitions = plan.decisions.flatMap((d) => (d.kind === 'transition' ? [transitionReport(d, null)] : []));
  return { ...report, transitions, counts: { ...report.counts, after: countsAfter(report.counts.before, transitions) } };
}

/** The run's status and timings; a skipped or deferred first run reports no change. */
export function finish(
  report: RunReport,
  status: RunReport['status'],
  t: { readMs: number; planMs: number; started: number },
  snapshot: LibrarySnapshot,
) {
  report.status = status;
  // A run that wrote nothing (not due, a first run, a failed write: the batch is never published) counts no change.
  if (status === 'skipped' || status === 'first-run' || status === 'failed')
    report.counters = { ...report.counters, marked_stale: 0, archived: 0, reactivated: 0, seeded: 0 };
  if (status === 'first-run' || status === 'failed') report.seeded = [];
  report.timings_ms = { read: round(t.readMs), plan: round(t.planMs), total: round(performance.now() - t.started) };
  return { report, snapshot };
}

const round = (ms: number) => Math.round(ms * 10) / 10;
