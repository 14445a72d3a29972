import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import runReportSchema from '../../schemas/run-report.schema.json' with { type: 'json' };
import type { EvidenceReport } from '../../src/core/evidence/types.js';
import { git } from '../helpers/repo.js';
import { plantSessions } from '../helpers/transcript-plant.js';
import { dbMigrate, oncallRotate, plantedSessions, releaseCut } from '../services/evidence/plant.js';
import { commitAt, createOrigin, runAction, runnerEnv, useAction } from './harness.js';

const action = useAction();
const validateReport = new Ajv2020({ strict: false, validateFormats: false }).compile(runReportSchema);

/** The planted library (three agent skills created 90 days before the run) and its October sessions in the checkout. */
async function plantedCheckout() {
  const names = ['release-cut', 'db-migrate', 'oncall-rotate'];
  const origin = createOrigin(names.map((name) => ({ name, age: 90, actor: 'agent' as const, extra: '' })));
  const texts: Record<string, string> = { 'release-cut': releaseCut, 'db-migrate': dbMigrate, 'oncall-rotate': oncallRotate };
  for (const name of names) writeFileSync(join(origin.workspace, `skills/${name}/SKILL.md`), texts[name]!);
  commitAt(origin.workspace, 'skills: their procedures', 89);
  git(origin.workspace, 'push', '-q', 'origin', 'main');
  const { claude, codex } = plantedSessions();
  plantSessions(join(origin.workspace, 'logs'), 'claude-code', claude);
  plantSessions(join(origin.workspace, 'logs'), 'codex', codex);
  return { origin, fake: await action.github(origin) };
}

function readRun(reportPath: string | undefined): { evidence?: EvidenceReport } {
  const run: unknown = JSON.parse(readFileSync(join(dirname(reportPath ?? ''), 'run.json'), 'utf8'));
  expect(validateReport(run), JSON.stringify(validateReport.errors)).toBe(true);
  return run as { evidence?: EvidenceReport };
}

describe('mode: curate with transcripts: the evidence', () => {
  it('puts what the skills did in the sessions into run.json, REPORT.md and the job summary, chart and budget included', async () => {
    const { origin, fake } = await plantedCheckout();
    const inputs = { mode: 'curate', transcripts: 'logs/**/*.jsonl' };
    const result = await runAction(action.entry, runnerEnv({ workspace: origin.workspace, apiUrl: fake.url, inputs }));
    expect(result.code, result.stdout).toBe(0);
    expect(fake.violations).toEqual([]);

    const { evidence } = readRun(result.outputs['report-path']);
    expect(evidence?.sessions).toBe(20);
    expect(evidence?.skills.map((s) => [s.name, s.loaded, s.missed])).toEqual([
      ['db-migrate', 5, 5],
      ['oncall-rotate', 0, 0],
      ['release-cut', 0, 6],
    ]);
    expect(Object.keys(evidence?.budget ?? {})).toEqual(['claude-code', 'codex', 'gemini-cli']);

    // The job summary is REPORT.md: the section with its table, its chart and the budget.
    const report = readFileSync(result.outputs['report-path'] ?? '', 'utf8');
    expect(result.summary).toContain(report.trim());
    expect(report).toContain('## Evidence from transcripts');
    expect(report).toContain('| `release-cut` | ');
    expect(report).toMatch(/\| `release-cut` \| \d+ \| 0 \| 6 \| 0% \(0 of 6\) \|/);
    expect(report).toContain('```mermaid\nxychart-beta');
    expect(report).toContain('  bar [6, 10]\n  bar [0, 5]');
    expect(report).toContain('1 skill(s) no session loaded or missed.');
    expect(report).toContain('| Claude Code | 8000 | ');
    // Nothing private from a transcript reaches the report: the token one request carried is redacted.
    expect(report).not.toContain('ghp_');
    // It opened pull requests: its undo line says how each is undone, never that the run changed nothing.
    expect(fake.pulls.length).toBeGreaterThan(0);
    expect(report).not.toContain('Nothing to undo: the run changed nothing.');
    expect(report).toContain('this run only proposes');

    // The lifecycle pull request shows the same evidence: the skill it marks stale, beside what the sessions did.
    const lifecycle = fake.pulls.find((p) => p.head.ref === 'skillgarden/lifecycle');
    expect(lifecycle?.body).toContain('## Evidence from transcripts');
    expect(lifecycle?.body).toMatch(
      /\| `oncall-rotate` \| active → stale \|[^\n]*in the transcripts: offered in \d+ session\(s\), loaded in 0, missed in 0 \|/,
    );
    expect(lifecycle?.body).not.toContain('ghp_');
  });

  it('adds no evidence when no transcripts are given', async () => {
    const { origin, fake } = await plantedCheckout();
    const result = await runAction(action.entry, runnerEnv({ workspace: origin.workspace, apiUrl: fake.url, inputs: { mode: 'curate' } }));
    expect(result.code, result.stdout).toBe(0);
    expect(readRun(result.outputs['report-path']).evidence).toBeUndefined();
    expect(result.summary).not.toContain('Evidence from transcripts');
  });
});
