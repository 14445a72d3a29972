import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { git, repoWith } from '../helpers/repo.js';
import { skillText } from '../helpers/tmp.js';

const now = new Date('2026-11-30T00:00:00Z');
const ago = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
const head = (dir: string) => git(dir, 'rev-parse', 'HEAD').trim();

async function curate(dir: string, reportDir: string) {
  const run = await cli(['curate', '--json', '--now', now.toISOString(), '--report-dir', reportDir], { cwd: dir });
  return {
    code: run.code,
    report: JSON.parse(run.stdout) as { status: string; commits: string[]; errors: { code: string }[]; undo: string | null },
  };
}

describe('curate writes a commit only when it has something to record', () => {
  it('a run with nothing to change writes no commit and no tag; its report is still kept', async () => {
    const dir = repoWith({ 'skills/mine/SKILL.md': skillText('mine'), 'draft.md': '' });
    const before = head(dir);
    const tags = git(dir, 'tag');
    await curate(dir, join(dir, '.git', 'r1'));
    const second = await curate(dir, join(dir, '.git', 'r2'));
    expect(second).toMatchObject({ code: 0, report: { status: 'completed', commits: [], undo: null } });
    expect(head(dir)).toBe(before);
    expect(git(dir, 'tag')).toBe(tags);
    expect(existsSync(join(dir, '.git', 'r2', 'run.json'))).toBe(true);
  });

  it("the library's own errors are reported and the run goes on: its transitions are committed, tagged", async () => {
    const dir = repoWith({
      'draft.md': skillText('old-skill'),
      '.claude-plugin/marketplace.json': JSON.stringify({
        name: 'm',
        owner: { name: 'o' },
        plugins: [{ name: 'gone', source: './plugins/gone' }],
      }),
      'skills/mine/SKILL.md': skillText('mine'),
    });
    const create = [
      'manage',
      'create',
      'old-skill',
      '--content',
      'draft.md',
      '--actor',
      'agent',
      '--source',
      'background',
      '--now',
      ago(200),
    ];
    expect((await cli(create, { cwd: dir })).code).toBe(0);
    writeFileSync(join(dir, 'draft.md'), '');
    git(dir, 'commit', '-qam', 'clear the draft');
    const before = head(dir);
    const run = await curate(dir, join(dir, '.git', 'r1'));
    // A marketplace entry pointing nowhere hides no skill the curator manages: the run is not held hostage by it.
    expect(run.report.status).toBe('completed');
    expect(run.report.errors.map((e) => e.code)).toContain('manifest/missing-path');
    expect(run.report.commits.length).toBe(2);
    expect(head(dir)).not.toBe(before);
    expect(existsSync(join(dir, 'skills/old-skill/SKILL.md'))).toBe(false);
    expect(git(dir, 'tag')).not.toBe('');
    git(dir, 'reset', '-q', '--hard', before);
    git(dir, 'tag', '-l', 'skillgarden/*')
      .trim()
      .split('\n')
      .filter(Boolean)
      .forEach((tag) => git(dir, 'tag', '-d', tag));

    // The plain path: the library fixed, the same run archives the skill, tagged.
    git(dir, 'rm', '-q', '.claude-plugin/marketplace.json');
    git(dir, 'commit', '-qm', 'drop the broken marketplace');
    const fixed = await curate(dir, join(dir, '.git', 'r2'));
    expect(fixed.report.status).toBe('completed');
    expect(fixed.report.commits.length).toBe(2);
    expect(existsSync(join(dir, 'skills/old-skill/SKILL.md'))).toBe(false);
    expect(git(dir, 'tag')).not.toBe('');
  });
});
