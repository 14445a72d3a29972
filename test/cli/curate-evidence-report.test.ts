import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EvidenceReport } from '../../src/core/evidence/types.js';
import { cli } from '../helpers/cli.js';
import { git } from '../helpers/repo.js';
import { plantSessions } from '../helpers/transcript-plant.js';
import { dbMigrate, oncallRotate, plantLibrary, plantedSessions, releaseCut } from '../services/evidence/plant.js';

describe('curate --transcripts: the evidence in the run report, as the Action writes it', () => {
  it('REPORT.md has the evidence section and its chart, run.json its figures; the undo line names the proposals', async () => {
    const dir = await plantLibrary({ 'release-cut': releaseCut, 'db-migrate': dbMigrate, 'oncall-rotate': oncallRotate });
    const { claude, codex } = plantedSessions();
    plantSessions(join(dir, 'logs'), 'claude-code', claude);
    plantSessions(join(dir, 'logs'), 'codex', codex);
    const run = await cli(['curate', '--propose', '--transcripts', 'logs/**/*.jsonl', '--now', '2026-11-01T00:00:00Z'], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const reportPath = /Report: (\S+REPORT\.md)/.exec(run.stdout)?.[1] ?? '';
    const report = readFileSync(reportPath, 'utf8');
    expect(report).toContain('## Evidence from transcripts');
    expect(report).toContain('```mermaid\nxychart-beta');
    expect(report).toMatch(/\| `release-cut` \| \d+ \| 0 \| 6 \| 0% \(0 of 6\) \|/);
    // Kept for being needed, and told why no description proposal came of it: its description has the words already.
    expect(report).toContain(
      '- `release-cut`: 6 session(s) needed it without loading it: not idle, so not stale; no description proposal: its description already holds the words people asked with (',
    );
    expect(report).not.toContain('Nothing to undo: the run changed nothing.');
    expect(report).toContain('this run only proposes');
    const runJson = JSON.parse(readFileSync(join(dirname(reportPath), 'run.json'), 'utf8')) as { evidence?: EvidenceReport };
    expect(runJson.evidence?.skills.map((s) => [s.name, s.loaded, s.missed])).toEqual([
      ['db-migrate', 5, 5],
      ['oncall-rotate', 0, 0],
      ['release-cut', 0, 6],
    ]);
    // The proposals the undo line speaks of.
    expect(git(dir, 'branch', '--list', 'skillgarden/*')).toContain('skillgarden/describe/db-migrate');
  });
});
