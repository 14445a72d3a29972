import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../../src/core/report/run-report.js';
import { buildReportFiles } from '../../../src/services/curator/report-files.js';

const counts = { active: 3, stale: 0, archived: 0 };
const report: RunReport = {
  version: 1,
  run_id: 'run-1',
  time: '2026-12-01T00:00:00.000Z',
  repo: '/repo',
  dry_run: false,
  status: 'completed',
  gates: {
    applied: false,
    enabled: true,
    paused: false,
    interval_hours: 24,
    last_run_at: null,
    next_due_at: null,
    first_run: false,
    blocked_by: null,
  },
  counts: { before: counts, after: counts },
  counters: { checked: 3, marked_stale: 0, archived: 0, reactivated: 0, seeded: 0 },
  transitions: [],
  skipped: [],
  seeded: [],
  forgotten: [],
  patterns: [],
  plans: [],
  prs: [],
  errors: [],
  warnings: [],
  undo: null,
  commits: [],
  timings_ms: {},
};

describe('REPORT.md of a run that only proposes', () => {
  const deferred = [{ skill: 'deploy-prod', from: 'active' as const, to: 'stale' as const, umbrella: 'deploy' }];

  it('lists the skills held back for a pending umbrella, as the umbrella body does', () => {
    const { markdown } = buildReportFiles(report, { deferred, proposed: true });
    expect(markdown).toContain('## Held back for a pending umbrella');
    expect(markdown).toContain(
      '- `deploy-prod`: active → stale would be due; the umbrella proposal `skillgarden/umbrella/deploy` changes it',
    );
  });

  it('says how a proposal is undone after its merge instead of "nothing to undo"', () => {
    const { markdown } = buildReportFiles(report, { deferred, proposed: true });
    expect(markdown).not.toContain('the run changed nothing');
    expect(markdown).toContain('`skillgarden rollback <merge-commit>`');
    expect(buildReportFiles(report).markdown).toContain('Nothing to undo: the run changed nothing.');
  });
});
