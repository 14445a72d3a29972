import type { Config } from '../config/config.js';
import type { CuratorState } from '../config/state.js';
import type { GateReport } from '../report/run-report.js';

const hourMs = 3_600_000;

export interface GateInput {
  /** A scheduled run obeys the gates; one asked for by hand does not. */
  scheduled: boolean;
  /** Hours the embedding host has been idle; undefined when not embedded (CLI, Action). */
  idleHours?: number;
  /** Defer the very first scheduled run (true unless every proposal goes to a person for review). */
  deferFirstRun?: boolean;
}

/** Whether a curator run may proceed now (DESIGN §6). Pure: the clock is passed in. */
export function checkGates(
  config: Pick<Config, 'enabled' | 'paused' | 'interval_hours' | 'min_idle_hours'>,
  state: Pick<CuratorState, 'last_run_at'>,
  now: Date,
  input: GateInput,
): GateReport {
  const last = state.last_run_at ?? null;
  const nextDue = last ? new Date(Date.parse(last) + config.interval_hours * hourMs).toISOString() : null;
  const report: GateReport = {
    applied: input.scheduled,
    enabled: config.enabled,
    paused: config.paused,
    interval_hours: config.interval_hours,
    last_run_at: last,
    next_due_at: nextDue,
    first_run: last === null,
    blocked_by: null,
  };
  if (!input.scheduled) return report;
  if (!config.enabled) report.blocked_by = 'disabled';
  else if (config.paused) report.blocked_by = 'paused';
  else if (nextDue !== null && now.getTime() < Date.parse(nextDue)) report.blocked_by = 'interval';
  else if (input.idleHours !== undefined && input.idleHours < config.min_idle_hours) report.blocked_by = 'idle';
  return report;
}
