import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { repoWith } from '../helpers/repo.js';
import { skillText, tempDir } from '../helpers/tmp.js';
import { plantSessions } from '../helpers/transcript-plant.js';
import { plantedSessions } from '../services/evidence/plant.js';

/**
 * docs/design.md "Paths": `--repo DIR` works as `git -C DIR`, so every relative path — typed or configured —
 * resolves against it, whatever folder the command was started in.
 */
describe('one base for relative paths: --repo, as git -C', () => {
  it('detect, evidence, curate --report-dir, publish --out and usage import read and write under --repo, not where they were started', async () => {
    const repo = repoWith({ 'skills/deploy/SKILL.md': skillText('deploy') });
    plantSessions(join(repo, 'logs'), 'claude-code', plantedSessions().claude.slice(0, 3));
    const elsewhere = tempDir('sg-started-here-');
    const at = (...argv: string[]) => cli(['--repo', repo, '--now', '2026-11-01T00:00:00Z', ...argv], { cwd: elsewhere });

    const detect = await at('--json', 'detect', '--transcripts', 'logs/**/*.jsonl');
    expect(detect.code, detect.stderr).toBe(0);
    expect((JSON.parse(detect.stdout) as { sessions: number }).sessions).toBe(3);
    const evidence = await at('--json', 'evidence', '--transcripts', 'logs/**/*.jsonl');
    expect(evidence.code, evidence.stderr).toBe(0);
    expect((JSON.parse(evidence.stdout) as { sessions: number }).sessions).toBe(3);

    const curate = await at('curate', '--dry-run', '--report-dir', 'out/report');
    expect(curate.code, curate.stderr).toBe(0);
    expect(existsSync(join(repo, 'out/report/REPORT.md'))).toBe(true);
    const publish = await at('publish', '--out', 'site');
    expect(publish.code, publish.stderr).toBe(0);
    expect(existsSync(join(repo, 'site/.well-known/agent-skills/index.json'))).toBe(true);

    writeFileSync(join(repo, 'otel.json'), JSON.stringify({ resourceLogs: [] }));
    const imported = await at('usage', 'import', 'otel.json');
    expect(imported.stderr).not.toContain('cannot read');
    // Nothing was read from or written to the folder the command was started in.
    expect(existsSync(join(elsewhere, 'out')) || existsSync(join(elsewhere, 'site'))).toBe(false);
    expect(readFileSync(join(repo, 'out/report/REPORT.md'), 'utf8')).toContain('Curator run');
  });
});
