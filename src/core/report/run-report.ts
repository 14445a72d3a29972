import type { EvidenceReport } from '../evidence/types.js';
import type { LifecycleCounts, LifecycleDecision, LifecycleState } from '../lifecycle/types.js';

export type RunStatus = 'completed' | 'dry-run' | 'first-run' | 'skipped' | 'failed';

export interface GateReport {
  /** False when the run was asked for by hand (`curate`): gates do not apply. */
  applied: boolean;
  enabled: boolean;
  paused: boolean;
  interval_hours: number;
  last_run_at: string | null;
  /** When the interval allows the next scheduled run. */
  next_due_at: string | null;
  first_run: boolean;
  /** Why a scheduled run did not proceed, if it did not. */
  blocked_by: 'disabled' | 'paused' | 'interval' | 'idle' | null;
}

export interface TransitionReport {
  skill: string;
  from: LifecycleState;
  to: LifecycleState;
  anchor: string;
  anchor_source: string;
  reason: string;
  /** The commit that made it; null in a dry run. */
  commit: string | null;
}

export interface RunReport {
  version: 1;
  run_id: string;
  time: string;
  repo: string;
  dry_run: boolean;
  status: RunStatus;
  gates: GateReport;
  counts: { before: StateCounts; after: StateCounts };
  counters: LifecycleCounts;
  transitions: TransitionReport[];
  skipped: { skill: string; reason: string; detail: string }[];
  seeded: string[];
  /** Skills the state file remembered that are gone from the tree (deleted by hand): their records were dropped. */
  forgotten: string[];
  /** Patterns found in transcripts (DetectedPattern: tools, sessions, confidence, fingerprint, draft or coveredBy). */
  patterns: unknown[];
  plans: unknown[];
  prs: unknown[];
  /** What the skills did in the transcripts, when the run was given some (curate with transcripts). */
  evidence?: EvidenceReport;
  errors: { code: string; message: string; file?: string }[];
  warnings: { code: string; message: string; file?: string }[];
  /** How to undo the run, or null when it changed nothing. */
  undo: string | null;
  /** The run's commits, oldest first. */
  commits: string[];
  timings_ms: Record<string, number>;
}

export interface StateCounts {
  active: number;
  stale: number;
  archived: number;
}

export function transitionReport(decision: LifecycleDecision & { kind: 'transition' }, commit: string | null): TransitionReport {
  return {
    skill: decision.name,
    from: decision.from,
    to: decision.to,
    anchor: decision.anchor,
    anchor_source: decision.anchorSource,
    reason: decision.reason,
    commit,
  };
}

/** Counts after the transitions, derived from the counts before: no second walk of the library. */
export function countsAfter(before: StateCounts, transitions: readonly TransitionReport[]): StateCounts {
  const after = { ...before };
  for (const t of transitions) {
    after[t.from]--;
    after[t.to]++;
  }
  return after;
}
