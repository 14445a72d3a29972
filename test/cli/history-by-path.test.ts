import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { skillsRoot } from '../helpers/corpus.js';
import { git, repoWith } from '../helpers/repo.js';
import { skillText, writeTree } from '../helpers/tmp.js';

const corpusSkill = join(skillsRoot, 'anthropics__skills', 'skills', 'skill-creator');

/** A plain `git commit` by a person at a given time (author and committer): no trailers. */
function commitByHand(dir: string, message: string, iso: string): string {
  git(dir, 'add', '-A');
  execFileSync('git', ['commit', '-q', '-m', message], {
    cwd: dir,
    env: {
      ...process.env,
      GIT_COMMITTER_DATE: iso,
      GIT_AUTHOR_DATE: iso,
      HOME: dir,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
    },
  });
  return git(dir, 'rev-parse', 'HEAD').trim();
}

describe('history of a repository without trailers (anthropics/skills)', () => {
  it('log --skill and show follow the skill through its move into skills/', async () => {
    const dir = repoWith({});
    const at = (iso: string, message: string, change: () => void): string => {
      change();
      return commitByHand(dir, message, iso);
    };
    const added = at('2025-10-01T10:00:00Z', 'Add skill-creator', () =>
      cpSync(corpusSkill, join(dir, 'document-skills/skill-creator'), { recursive: true }),
    );
    const edited = at('2025-10-05T10:00:00Z', 'Clarify the steps', () =>
      writeFileSync(
        join(dir, 'document-skills/skill-creator/SKILL.md'),
        `${readFileSync(corpusSkill + '/SKILL.md', 'utf8')}\nOne more note.\n`,
      ),
    );
    const moved = at('2025-11-01T10:00:00Z', 'Move skills into skills/', () => git(dir, 'mv', 'document-skills', 'skills'));
    at('2025-11-02T10:00:00Z', 'Add a README', () => writeTree(dir, { 'README.md': '# skills\n' }));
    const later = at('2025-11-10T10:00:00Z', 'Tweak a reference', () =>
      writeTree(dir, { 'skills/skill-creator/references/extra.md': 'extra\n' }),
    );

    const log = await cli(['log', '--skill', 'skill-creator', '--json'], { cwd: dir });
    expect(log.code, log.stderr).toBe(0);
    const entries = JSON.parse(log.stdout).entries as Array<{ commit: string; skills: string[]; actor: string }>;
    expect(entries.map((e) => e.commit)).toEqual([later, moved, edited, added]);
    expect(entries.every((e) => e.actor === 'user' && e.skills.includes('skill-creator'))).toBe(true);

    const plain = await cli(['log'], { cwd: dir });
    expect(plain.stdout.split('\n')[0]).toMatch(/^commit\s+time\s+action\s+actor\s+skills\s+subject$/);
    expect(plain.stdout).not.toContain('Add a README');
    expect((await cli(['log', '--all'], { cwd: dir })).stdout).toContain('Add a README');

    const show = await cli(['show', 'skill-creator', '--json'], { cwd: dir });
    expect(show.code, show.stderr).toBe(0);
    const detail = JSON.parse(show.stdout);
    expect(detail.created_at).toBe('2025-10-01T10:00:00Z');
    expect(detail.history.created.commit).toBe(added);
    expect(detail.history.lastPatched.commit).toBe(later);
    // A person's plain edit is activity, as the curator counts it, though no usage file recorded it.
    expect(detail.last_activity_at).toBe('2025-11-10T10:00:00Z');

    const text = await cli(['show', 'skill-creator'], { cwd: dir });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).not.toContain('{');
    expect(text.stdout.split('\n')).toEqual(
      expect.arrayContaining([
        'skill-creator',
        '  path           skills/skill-creator',
        '  last activity  2025-11-10',
        `  created        2025-10-01, commit ${added.slice(0, 7)} by user`,
        `  last patched   2025-11-10, commit ${later.slice(0, 7)}`,
      ]),
    );
  });
});

describe('the curator anchors on the last patch wherever it is recorded', () => {
  it('a skill an agent patched 12 days ago, recorded only as a commit, is not archived as "no activity since creation"', async () => {
    const now = new Date('2026-04-30T00:00:00Z');
    const ago = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString().replace(/\.000Z$/, 'Z');
    const dir = repoWith({ 'draft.md': skillText('helper', '', '# Helper\n\nStep one.\n') });
    const agent = ['--actor', 'agent', '--source', 'background'];
    expect((await cli(['manage', 'create', 'helper', '--content', 'draft.md', ...agent, '--now', ago(120)], { cwd: dir })).code).toBe(0);
    const patch = await cli(
      ['manage', 'patch', 'helper', '--old', 'Step one.', '--new', 'Step one, done well.', ...agent, '--now', ago(12)],
      {
        cwd: dir,
      },
    );
    expect(patch.code, patch.stderr).toBe(0);
    expect(existsSync(join(dir, '.skillgarden/usage'))).toBe(false); // no usage file: the patch is only a commit
    writeTree(dir, { '.skillgarden/state.json': JSON.stringify({ version: 1, last_run_at: ago(8), skills: {} }) });
    commitByHand(dir, 'state as a previous run left it', ago(8));

    const run = await cli(['curate', '--dry-run', '--json', '--now', now.toISOString()], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.transitions).toEqual([]);
    expect(report.skipped).toEqual([expect.objectContaining({ skill: 'helper', reason: 'unchanged' })]);
    expect(JSON.stringify(report.skipped[0])).toContain(ago(12).slice(0, 10));
  });
});
