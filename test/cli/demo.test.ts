import { describe, expect, it } from 'vitest';
import { validateSkill } from '../../src/core/validate.js';
import { cli } from '../helpers/cli.js';
import { git } from '../helpers/repo.js';
import { tempDir } from '../helpers/tmp.js';

describe('skillgarden demo', () => {
  it('builds a repository with 120 simulated days, runs the curator twice and shows the report and the ledger', async () => {
    const dir = tempDir('skillgarden-demo-test-');
    const run = await cli(['demo', '--dir', dir, '--json', '--now', '2026-11-30T00:00:00Z'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const { reports } = JSON.parse(run.stdout);
    const [first, last] = reports;
    expect(first.counters).toMatchObject({ marked_stale: 6, seeded: 4 });
    expect(last.transitions.map((t: { skill: string; to: string }) => `${t.skill}:${t.to}`)).toEqual([
      'csv-dedupe-rows:archived',
      'docker-prune-space:archived',
      'git-bisect-regression:active',
      'latex-table-from-csv:archived',
      'matplotlib-font-fix:active',
    ]);
    expect(last.skipped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ skill: 'release-notes-draft', reason: 'pinned' }),
        expect.objectContaining({ skill: 'nightly-backup-check', reason: 'referenced' }),
      ]),
    );
    expect(last.patterns[0]).toMatchObject({ tools: ['search_papers', 'download_paper', 'rag_search', 'write_summary'], sessions: 5 });
    expect(last.plans).toMatchObject([
      { kind: 'create', into: 'git-rebase', from: ['git-rebase-conflicts', 'git-rebase-interactive', 'git-rebase-onto'] },
    ]);
    const draft = last.patterns[0].draft;
    expect(validateSkill({ file: 'SKILL.md', content: draft.text, folder: draft.name, profile: 'spec' }).findings).toEqual([]);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(git(dir, 'fsck', '--strict')).toBe('');
    expect(git(dir, 'ls-files', 'skills/.archive')).toContain('skills/.archive/csv-dedupe-rows/SKILL.md');
  });

  it('prints REPORT.md, the ledger and where the repository is', async () => {
    const dir = tempDir('skillgarden-demo-test-');
    const run = await cli(['demo', '--dir', dir, '--now', '2026-11-30T00:00:00Z'], { cwd: dir });
    expect(run.stdout).toContain('# Curator run 2026-11-30T00-00-00Z-');
    expect(run.stdout).toContain('## Patterns');
    expect(run.stdout).toContain('## Consolidation plans');
    expect(run.stdout).toContain('## The ledger (newest first)');
    expect(run.stdout).toContain(`The demo repository is at ${dir}`);
  });
});
