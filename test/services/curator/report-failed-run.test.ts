import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCommitMessage } from '../../../src/core/ledger/trailers.js';
import { renderRunMarkdown } from '../../../src/core/report/render-run.js';
import { runCurator } from '../../../src/services/curator/run-curator.js';
import { git, repoWith } from '../../helpers/repo.js';
import { skillText } from '../../helpers/tmp.js';

/** Two skills an agent created long ago: the curator archives both. `blockArchive` puts a file where the archive folder goes. */
function library(blockArchive: boolean): string {
  const dir = repoWith({});
  const files: Record<string, string> = { 'skills/old-a/SKILL.md': skillText('old-a'), 'skills/old-b/SKILL.md': skillText('old-b') };
  if (blockArchive) files['skills/.archive'] = 'a file where the archive folder goes\n';
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  git(dir, 'add', '-A');
  const trailers = {
    action: 'create' as const,
    skills: ['old-a', 'old-b'],
    actor: 'agent' as const,
    source: 'background' as const,
    reverts: [],
  };
  git(dir, 'commit', '-q', '-m', buildCommitMessage({ subject: 'skill(create): old-a, old-b', trailers }));
  return dir;
}

const now = new Date('2030-01-01T00:00:00Z');

describe("a curator run's report never contradicts itself", () => {
  it('a run whose archives all fail counts no archive, seeds nothing and offers no undo', async () => {
    const dir = library(true);
    const head = git(dir, 'rev-parse', 'HEAD');
    const { report } = await runCurator({ repoDir: dir, now });
    expect(report.status).toBe('failed');
    expect(report.errors.map((e) => e.code)).toEqual(['ledger/bad-path', 'ledger/bad-path']);
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(head);
    expect(report.counters.archived).toBe(0);
    expect(report.counts.after.archived).toBe(0);
    expect(report.undo).toBeNull();
    const markdown = renderRunMarkdown(report);
    expect(markdown).toContain('0 archived');
    expect(markdown).not.toMatch(/[1-9]\d* archived/);
    expect(markdown).not.toContain('rollback --run');
    expect(markdown.match(/Nothing to undo/g)).toHaveLength(1);
  });

  it('a run that archives two says 2 archived everywhere, and how to undo it', async () => {
    const dir = library(false);
    const { report } = await runCurator({ repoDir: dir, now });
    expect(report.status).toBe('completed');
    expect(report.counters.archived).toBe(2);
    expect(report.counts.after.archived).toBe(2);
    expect(report.transitions.map((t) => t.to)).toEqual(['archived', 'archived']);
    const markdown = renderRunMarkdown(report);
    expect(markdown).toContain('2 archived');
    expect(markdown).toContain(`rollback --run ${report.run_id}`);
    expect(git(dir, 'ls-files', 'skills').trim().split('\n')).toEqual(['skills/.archive/old-a/SKILL.md', 'skills/.archive/old-b/SKILL.md']);
  });
});
