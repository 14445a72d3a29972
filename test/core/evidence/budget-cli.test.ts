import { describe, expect, it } from 'vitest';
import type { EvidenceReport } from '../../../src/core/evidence/types.js';
import { cli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/tmp.js';
import { plantSessions } from '../../helpers/transcript-plant.js';
import { dbMigrate, oncallRotate, plantLibrary, plantedSessions, releaseCut } from '../../services/evidence/plant.js';

describe('skillgarden evidence: the listing budget over a planted library', () => {
  it('drops the least-loaded descriptions at --context-tokens, and names first the needed skill the budget hides', async () => {
    const dir = await plantLibrary({ 'release-cut': releaseCut, 'db-migrate': dbMigrate, 'oncall-rotate': oncallRotate });
    const root = tempDir('sg-budget-transcripts-');
    const { claude, codex } = plantedSessions();
    plantSessions(root, 'claude-code', claude);
    plantSessions(root, 'codex', codex);
    const args = ['evidence', '--transcripts', root, '--now', '2026-11-01T00:00:00Z'];

    // 5,000 tokens: Claude Code's listing gets 200 characters. The three names take 43; db-migrate (loaded 5 times)
    // keeps its description (96 characters with ": "); oncall-rotate's 68 no longer fit in the 61 left.
    const run = await cli([...args, '--context-tokens', '5000', '--json'], { cwd: dir });
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as EvidenceReport;
    const claudeCode = report.budget['claude-code'];
    expect(claudeCode).toMatchObject({ limit_chars: 200, used_chars: 43 + 96 + 68 + 80, fits: ['db-migrate'] });
    expect(claudeCode?.dropped).toEqual(['oncall-rotate', 'release-cut']);
    expect(claudeCode?.advice).toEqual([
      'release-cut: its description falls out although sessions needed it (missed 6, loaded 0)',
      `${43 + 96 + 68 + 80 - 200} characters still over after these: fewer skills, or a larger context (--context-tokens)`,
    ]);
    expect(report.budget['gemini-cli']?.dropped).toEqual([]);

    const text = await cli([...args, '--context-tokens', '5000'], { cwd: dir });
    expect(text.stdout).toContain('  Claude Code: 287 of 200 characters; 2 description(s) fall out: oncall-rotate, release-cut');
    expect(text.stdout).toContain('    - release-cut: its description falls out although sessions needed it (missed 6, loaded 0)');

    // At the default 200,000 tokens everything fits; a context too small to mean anything is refused, naming the option.
    const roomy = JSON.parse((await cli([...args, '--json'], { cwd: dir })).stdout) as EvidenceReport;
    expect(Object.values(roomy.budget).map((b) => b.dropped)).toEqual([[], [], []]);
    const bad = await cli([...args, '--context-tokens', 'lots'], { cwd: dir });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--context-tokens "lots" must be a whole number, 1000 or more');
  });
});
