import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { DetectedPattern } from '../../src/core/patterns/types.js';
import { checkSchema } from '../../src/core/schema/index.js';
import { runDetect } from '../../src/services/detect.js';
import { writeTaskTranscripts } from '../fixtures/task-transcripts/scenarios.js';

const dir = mkdtempSync(join(tmpdir(), 'sg-task-transcripts-'));
writeTaskTranscripts(dir);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function frontmatterOf(text: string): Record<string, unknown> {
  return parse(/^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? '') as Record<string, unknown>;
}

const drafted = (patterns: readonly DetectedPattern[]) => patterns.filter((p) => p.draft !== undefined);

describe('drafts a reviewer would keep, from transcripts in three formats', () => {
  it('names each draft for the task people asked for, with the commands they ran', async () => {
    const report = await runDetect({ transcripts: ['.'], cwd: dir });
    expect(report.sessions).toBe(13);
    const drafts = drafted(report.patterns).map((p) => p.draft as NonNullable<DetectedPattern['draft']>);
    const byTask = (word: string) => drafts.filter((d) => d.name.includes(word));
    // One draft per task: the nested and overlapping windows of the same sessions fold into it.
    expect(drafts).toHaveLength(3);
    const [fix] = byTask('fix');
    const [release] = byTask('release');
    const [migration] = byTask('migration');
    expect(fix?.name).toBe('fix-failing-tests');
    expect(release?.name).toMatch(/^cut-release/);
    expect(migration?.name).toMatch(/^database-migration/);
    const expectations: Array<[typeof fix, RegExp, string[], string]> = [
      [fix, /fix the failing tests/i, ['`npm test -- --run`', '`*.ts`'], 'tests'],
      [release, /cut a release/i, ['`npm publish --access public`', '`npm version <version>`', '`git push --follow-tags`'], 'release'],
      [migration, /database migration/i, ['`alembic upgrade head`', '`pytest tests/ -q`', '`*.py`'], 'tests'],
    ];
    for (const [draft, asked, commands, ending] of expectations) {
      const data = frontmatterOf(draft?.text ?? '');
      expect(String(data.description)).toMatch(/Use when asked to/);
      expect(String(data.description)).toMatch(asked);
      for (const command of commands) expect(draft?.text).toContain(command);
      expect(draft?.evidence?.ending).toBe(ending);
      const metadata = data.metadata as Record<string, string>;
      expect(metadata.session_ids?.split(', ').length).toBeGreaterThanOrEqual(3);
      expect(metadata.first_seen).toMatch(/^2026-10-/);
      expect(metadata.transcripts).toBeTruthy();
      const findings = checkSchema({ file: 'SKILL.md', data, profile: 'spec', locateKey: () => undefined, locateValue: () => undefined });
      expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
    }
  });

  it('gives no draft to read and search pairs, and says why', async () => {
    const report = await runDetect({ transcripts: ['claude'], cwd: dir });
    const look = report.patterns.find((p) => p.tools.join() === 'Glob,Read');
    expect(look).toBeDefined();
    expect(look?.draft).toBeUndefined();
    expect(look?.reason).toMatch(/only reads, searches/);
    for (const p of drafted(report.patterns)) expect(p.tools.some((t) => t.startsWith('Bash:'))).toBe(true);
  });

  it('keeps to the limits: max_drafts, min_sessions, min_confidence', async () => {
    const one = await runDetect({ transcripts: ['.'], cwd: dir, limits: { max_drafts: 1 } });
    expect(drafted(one.patterns)).toHaveLength(1);
    expect(one.patterns.some((p) => p.reason?.startsWith('beyond max_drafts (1)'))).toBe(true);
    const strict = await runDetect({ transcripts: ['.'], cwd: dir, limits: { min_sessions: 4 } });
    expect(drafted(strict.patterns).map((p) => p.draft?.name)).toEqual(['fix-failing-tests']);
    const confident = await runDetect({ transcripts: ['.'], cwd: dir, limits: { min_confidence: 1.01 } });
    expect(drafted(confident.patterns)).toEqual([]);
  });
});
