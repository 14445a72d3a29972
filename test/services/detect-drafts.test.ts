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
    expect(drafts).toHaveLength(2);
    const [release] = byTask('release');
    const [migration] = byTask('migration');
    expect(release?.name).toMatch(/^cut-release/);
    expect(migration?.name).toMatch(/^database-migration/);
    const expectations: Array<[typeof release, RegExp, string[], string]> = [
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

  it('gives no draft to test → edit → test: the habit of any fix, with commands every task runs', async () => {
    const report = await runDetect({ transcripts: ['claude'], cwd: dir });
    // The fixing sessions asked for one task in the same words and ran the same loop: no skill would change them.
    const loops = report.patterns.filter((p) => p.tools.includes('Bash:npm') && p.tools.some((t) => t === 'Edit'));
    expect(loops.length).toBeGreaterThan(0);
    for (const loop of loops) {
      expect(loop.draft).toBeUndefined();
      expect(loop.reason).toMatch(/^runs only commands every task runs \(npm test\) between reads and edits: a working habit/);
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
    // The release and the migration were done in three sessions each: below the limit. Only the fixing loop has four,
    // and it is a habit.
    expect(drafted(strict.patterns)).toEqual([]);
    expect(strict.patterns.length).toBeGreaterThan(0);
    for (const p of strict.patterns) expect([p.sessions >= 4, p.reason]).toEqual([true, expect.stringMatching(/working habit|only reads/)]);
    const confident = await runDetect({ transcripts: ['.'], cwd: dir, limits: { min_confidence: 1.01 } });
    expect(drafted(confident.patterns)).toEqual([]);
  });
});
