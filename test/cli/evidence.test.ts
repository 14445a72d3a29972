import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import evidenceSchema from '../../schemas/evidence-report.schema.json' with { type: 'json' };
import { tempDir } from '../helpers/tmp.js';
import { plantSessions } from '../helpers/transcript-plant.js';
import { dbMigrate, oncallRotate, plantLibrary, plantedSessions, releaseCut, secret } from '../services/evidence/plant.js';

const run = promisify(execFile);
const bin = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'skillgarden.js');
const validate = new Ajv2020({ strict: false, validateFormats: false }).compile(evidenceSchema);

async function skillgarden(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { cwd });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('skillgarden evidence, as a person runs it', () => {
  it('--json is the report its schema describes; the text is a table with counts beside every rate', async () => {
    const dir = await plantLibrary({ 'release-cut': releaseCut, 'db-migrate': dbMigrate, 'oncall-rotate': oncallRotate });
    const { claude, codex } = plantedSessions();
    const root = tempDir('sg-evidence-cli-');
    plantSessions(join(root, 'sessions'), 'claude-code', claude);
    plantSessions(join(root, 'sessions'), 'codex', codex);
    const args = ['evidence', '--transcripts', `${root}/sessions/**/*.jsonl`, '--now', '2026-11-01T00:00:00Z'];
    const json = await skillgarden([...args, '--json'], dir);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.skills.map((s: { name: string; loaded: number; missed: number }) => [s.name, s.loaded, s.missed])).toEqual([
      ['db-migrate', 5, 5],
      ['oncall-rotate', 0, 0],
      ['release-cut', 0, 6],
    ]);
    expect(json.stdout).not.toContain(secret);
    expect(json.stdout).not.toContain(root);

    const text = await skillgarden([...args, '--min-sessions', '6'], dir);
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toBe('Read 20 files: 20 sessions with 85 tool calls.');
    const row = (name: string) => lines.find((line) => line.startsWith(`${name} `))?.split(/\s{2,}/);
    expect(row('release-cut')).toEqual(['release-cut', '19', '0', '6', '0% (0/6)', '–', '4: 4 calls, – errors']);
    expect(row('db-migrate')).toEqual(['db-migrate', '19', '5', '5', '50% (5/10)', '5: 5 calls, – errors', '5: 6 calls, – errors']);
    // A skill no session loaded or missed has no row of zeros: the untouched ones share one line (the JSON keeps each).
    expect(row('oncall-rotate')).toBeUndefined();
    expect(lines).toContain('1 skill with no evidence either way: oncall-rotate.');
    expect(text.stdout).toContain('1 × loaded, but not in the library nor its history: ghost-skill');
    // release-cut is listed first: the skill sessions needed most.
    expect(lines.findIndex((l) => l.startsWith('release-cut'))).toBeLessThan(lines.findIndex((l) => l.startsWith('db-migrate')));
  });

  it('says what is wrong with bad input, without a stack trace', async () => {
    const dir = await plantLibrary({ 'release-cut': releaseCut });
    const since = await skillgarden(['evidence', '--transcripts', 'x', '--since', 'last tuesday'], dir);
    expect(since.code).toBe(2);
    expect(since.stderr).toContain('--since "last tuesday" is not a time');
    expect(since.stderr).not.toMatch(/\n\s+at /);
    const none = await skillgarden(['evidence'], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('evidence needs --transcripts GLOB');
    const count = await skillgarden(['evidence', '--transcripts', 'x', '--min-sessions', 'two'], dir);
    expect(count.stderr).toContain('--min-sessions "two" must be a whole number');
    const nothing = await skillgarden(['evidence', '--transcripts', 'nowhere/*.jsonl', '--json'], dir);
    expect(nothing.code).toBe(0);
    expect(JSON.parse(nothing.stdout).skipped).toEqual([{ file: 'nowhere/*.jsonl', reason: 'no transcript files match', count: 1 }]);
    // From another folder with --repo: a relative glob resolves against the repository.
    plantSessions(join(dir, 'sessions'), 'claude-code', plantedSessions().claude.slice(0, 2));
    const elsewhere = await skillgarden(
      ['evidence', '--repo', dir, '--transcripts', 'sessions/**/*.jsonl', '--json'],
      tempDir('sg-elsewhere-'),
    );
    expect([JSON.parse(elsewhere.stdout).sessions, JSON.parse(elsewhere.stdout).skipped]).toEqual([
      2,
      [{ skill: 'db-migrate', reason: 'loaded, but not in the library nor its history', count: 2 }],
    ]);
  });
});
