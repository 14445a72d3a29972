import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import runReportSchema from '../../../schemas/run-report.schema.json' with { type: 'json' };
import { CuratorRunner } from '../../../src/services/curator/curator-runner.js';
import { runCurator } from '../../../src/services/curator/run-curator.js';
import { cli } from '../../helpers/cli.js';
import { git, repoWith } from '../../helpers/repo.js';
import { skillText } from '../../helpers/tmp.js';

const validateReport = new Ajv2020({ strict: false, validateFormats: false }).compile(runReportSchema);

async function library() {
  const dir = repoWith({ 'draft.md': skillText('old-one') });
  expect(
    (
      await cli(
        [
          'manage',
          'create',
          'old-one',
          '--content',
          'draft.md',
          '--actor',
          'agent',
          '--source',
          'background',
          '--now',
          '2026-01-01T00:00:00Z',
        ],
        { cwd: dir },
      )
    ).code,
  ).toBe(0);
  return dir;
}

describe('CuratorRunner (embedded in an agent host)', () => {
  it('waits for idleness and the interval, records the first run only, then acts', async () => {
    const dir = await library();
    let clock = new Date('2026-11-30T00:00:00Z');
    const reports: string[] = [];
    const runner = new CuratorRunner({ repoDir: dir, now: () => clock, onRun: (r) => reports.push(r.status) });
    expect(runner.shouldRunNow()).toEqual({ run: false, reason: 'idle' });
    clock = new Date('2026-11-30T03:00:00Z');
    expect(runner.shouldRunNow()).toEqual({ run: true, reason: 'first run: records its time only' });
    runner.pause();
    expect(runner.shouldRunNow().reason).toBe('paused by the host');
    runner.resume();
    expect((await runner.tick())?.status).toBe('first-run');
    expect(await runner.tick()).toBeUndefined();
    clock = new Date('2026-12-08T03:00:00Z');
    runner.recordActivity();
    expect(runner.shouldRunNow().reason).toBe('idle');
    clock = new Date('2026-12-08T06:00:00Z');
    const report = await runner.tick();
    expect(report?.transitions.map((t) => `${t.skill}:${t.to}`)).toEqual(['old-one:archived']);
    expect(reports).toEqual(['first-run', 'completed']);
  });
});

describe('run reports', () => {
  it('match schemas/run-report.schema.json for dry, real and skipped runs, and are written beside REPORT.md', async () => {
    const dir = await library();
    const now = new Date('2026-11-30T00:00:00Z');
    for (const options of [{ dryRun: true }, {}, { scheduled: true }]) {
      const { report } = await runCurator({ repoDir: dir, now, ...options });
      expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    }
    const run = await cli(['curate', '--report-dir', 'out', '--now', '2026-12-30T00:00:00Z'], { cwd: dir });
    expect(run.code).toBe(0);
    const written = JSON.parse(readFileSync(join(dir, 'out/run.json'), 'utf8'));
    expect(validateReport(written)).toBe(true);
    expect(readFileSync(join(dir, 'out/REPORT.md'), 'utf8')).toContain(`# Curator run ${written.run_id}`);
  });

  it('a run interrupted half-way leaves nothing half-done (its batch is unpublished), and the next run does it all', async () => {
    const dir = repoWith({ 'draft.md': '' });
    for (const name of ['a-one', 'b-two', 'c-three']) {
      writeFileSync(join(dir, 'draft.md'), skillText(name));
      await cli(
        ['manage', 'create', name, '--content', 'draft.md', '--actor', 'agent', '--source', 'background', '--now', '2026-01-01T00:00:00Z'],
        { cwd: dir },
      );
      await cli(
        ['manage', 'write-file', name, 'references/notes.md', '--content', 'draft.md', '--actor', 'agent', '--now', '2026-01-01T00:00:00Z'],
        { cwd: dir },
      );
    }
    const now = new Date('2026-11-30T00:00:00Z');
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    // The process "dies" after the first transition is built: a run's commits are one batch, published together.
    const interrupted = runCurator({
      repoDir: dir,
      now,
      onProgress: (done) => {
        if (done === 1) throw new Error('killed');
      },
    });
    await expect(interrupted).rejects.toThrow('killed');
    expect(git(dir, 'status', '--porcelain', '--', 'skills', '.skillgarden')).toBe('');
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(git(dir, 'ls-files', 'skills/.archive').trim()).toBe('');
    const { report } = await runCurator({ repoDir: dir, now });
    expect(report.transitions.map((t) => t.skill)).toEqual(['a-one', 'b-two', 'c-three']);
    expect(git(dir, 'rev-list', '--count', `${head}..HEAD`).trim()).toBe('4');
    expect(
      git(dir, 'ls-files', 'skills')
        .trim()
        .split('\n')
        .every((p) => p.startsWith('skills/.archive/')),
    ).toBe(true);
    expect(git(dir, 'ls-files', 'skills/.archive').trim().split('\n')).toHaveLength(6);
  });
});
