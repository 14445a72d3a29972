import { readEnding } from '../patterns/evidence.js';
import type { ToolCall } from '../patterns/types.js';
import type { OutcomeFigures } from './types.js';

/** What the figures need of one session, kept instead of its calls. */
export interface SessionOutcome {
  calls: number;
  errors: number;
  /** Calls repeated right after the same call (same tool and detail, or shape) failed. */
  retries: number;
  /** The session's last test run passed (it ran tests, and the last run was not marked as an error). */
  testsPassing: boolean;
  /** A `git commit` that did not fail among the session's last calls. */
  commit: boolean;
}

/** How many of a session's last calls can hold the commit it ended in. */
const endingCalls = 5;

function sameCall(a: ToolCall, b: ToolCall): boolean {
  return a.name === b.name && (a.detail ?? a.shape) === (b.detail ?? b.shape);
}

export function readSessionOutcome(calls: readonly ToolCall[]): SessionOutcome {
  let errors = 0;
  let retries = 0;
  let lastTest: ToolCall | undefined;
  let commit = false;
  calls.forEach((call, i) => {
    if (call.error === true) errors += 1;
    const before = calls[i - 1];
    if (before?.error === true && sameCall(before, call)) retries += 1;
    // Each command of a chain (`npm test && git commit -m x`) says how the session went, not the first alone.
    const commands = call.detail === undefined || call.program === undefined ? [] : [call.detail, ...(call.chain ?? [])];
    const endings = new Set(commands.map((command) => readEnding([command], call.name)));
    if (endings.has('tests')) lastTest = call;
    if (i >= calls.length - endingCalls && endings.has('commit') && call.error !== true) commit = true;
  });
  return { calls: calls.length, errors, retries, testsPassing: lastTest !== undefined && lastTest.error !== true, commit };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : round(((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2);
}

/** A group's figures; the error rate stands on `minSessions` sessions or is null. */
export function buildOutcomeFigures(outcomes: readonly SessionOutcome[], minSessions: number): OutcomeFigures {
  const calls = outcomes.reduce((sum, o) => sum + o.calls, 0);
  const errors = outcomes.reduce((sum, o) => sum + o.errors, 0);
  return {
    sessions: outcomes.length,
    median_calls: median(outcomes.map((o) => o.calls)),
    error_rate: outcomes.length < minSessions || calls === 0 ? null : round(errors / calls),
    median_retries: median(outcomes.map((o) => o.retries)),
    ended_tests_passing: outcomes.filter((o) => o.testsPassing).length,
    ended_commit: outcomes.filter((o) => o.commit).length,
  };
}
