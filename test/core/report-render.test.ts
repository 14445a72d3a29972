import { describe, expect, it } from 'vitest';
import { renderRunMarkdown } from '../../src/core/report/render-run.js';
import type { RunReport } from '../../src/core/report/run-report.js';

const report = (skill: string): RunReport => ({
  version: 1,
  run_id: '2026-11-30T00-00-00Z-abcd',
  time: '2026-11-30T00:00:00.000Z',
  repo: '/r',
  dry_run: false,
  status: 'completed',
  gates: {
    applied: false,
    enabled: true,
    paused: false,
    interval_hours: 168,
    last_run_at: null,
    next_due_at: null,
    first_run: true,
    blocked_by: null,
  },
  counts: { before: { active: 1, stale: 0, archived: 0 }, after: { active: 0, stale: 1, archived: 0 } },
  counters: { checked: 1, marked_stale: 1, archived: 0, reactivated: 0, seeded: 0 },
  transitions: [
    { skill, from: 'active', to: 'stale', anchor: '2026-10-01T00:00:00Z', anchor_source: 'created', reason: 'old', commit: 'a'.repeat(40) },
  ],
  skipped: [],
  seeded: [],
  forgotten: [],
  patterns: [],
  plans: [],
  prs: [],
  errors: [],
  warnings: [],
  undo: 'skillgarden rollback --run 2026-11-30T00-00-00Z-abcd',
  commits: [],
  timings_ms: {},
});

describe('renderRunMarkdown', () => {
  it.each([
    ['plain-name', '`plain-name`'],
    ['odd`name|x', '``odd`name\\|x``'],
  ])('keeps the table intact for %s', (name, cell) => {
    const row = renderRunMarkdown(report(name))
      .split('\n')
      .find((line) => line.includes('active → stale'));
    expect(row?.startsWith(`| ${cell} |`)).toBe(true);
    expect(row?.split(/(?<!\\)\|/).length).toBe(7);
  });
});
