import { existsSync, mkdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../../helpers/cli.js';
import { git, repoWith, status } from '../../helpers/repo.js';
import { skillText } from '../../helpers/tmp.js';

/** A library where `real` has two aliases (a folder link and a SKILL.md link), `other` none, and `ghost` links to nothing. */
function library(): string {
  const dir = repoWith({ 'skills/real/SKILL.md': skillText('real'), 'skills/other/SKILL.md': skillText('other') });
  const links: Record<string, string> = {
    'skills/alias': 'real',
    '.gemini/skills/real/SKILL.md': '../../../skills/real/SKILL.md',
    'skills/ghost': 'gone',
  };
  for (const [path, target] of Object.entries(links)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    symlinkSync(target, join(dir, path));
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'links');
  return dir;
}

describe('archive and the links that point at a skill', () => {
  it('refuses to archive a skill from under its aliases, naming each link and what to do; archives it once they are gone', async () => {
    const dir = library();
    const head = git(dir, 'rev-parse', 'HEAD');
    for (const name of ['real', 'alias']) {
      const refused = await cli(['archive', name], { cwd: dir });
      expect(refused.code, name).toBe(1);
      expect(refused.stderr).toContain('skills/real is linked to by 2 symbolic links (.gemini/skills/real/SKILL.md, skills/alias)');
      expect(refused.stderr).toContain('git rm .gemini/skills/real/SKILL.md skills/alias');
      expect(refused.stderr).not.toMatch(/\n\s+at /);
    }
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(head);
    expect(readlinkSync(join(dir, 'skills/alias'))).toBe('real');

    // A skill nothing links to archives as before.
    expect((await cli(['archive', 'other'], { cwd: dir })).code).toBe(0);

    git(dir, 'rm', '-q', '.gemini/skills/real/SKILL.md', 'skills/alias');
    git(dir, 'commit', '-q', '-m', 'drop the aliases');
    const archived = await cli(['archive', 'real'], { cwd: dir });
    expect(archived.code, archived.stderr).toBe(0);
    expect(existsSync(join(dir, 'skills/.archive/real/SKILL.md'))).toBe(true);
    expect(status(dir)).toBe('');
  }, 60_000);

  it('a skill folder linked to nothing is a finding on its own path', async () => {
    const dir = library();
    const validate = JSON.parse((await cli(['validate', '--json'], { cwd: dir })).stdout) as { findings: { code: string; file: string }[] };
    expect(validate.findings.filter((f) => f.code === 'library/broken-link').map((f) => f.file)).toEqual(['skills/ghost']);
    const list = await cli(['list', '--json'], { cwd: dir });
    expect((JSON.parse(list.stdout) as { skills: { name: string }[] }).skills.map((s) => s.name).sort()).toEqual(['other', 'real']);
  }, 60_000);

  it('the curator marks an idle agent skill with an alias stale, never archives it from under the link, and says why', async () => {
    const dir = repoWith({ 'skills/keep/SKILL.md': skillText('keep') });
    writeFileSync(join(dir, 'draft.md'), skillText('real'));
    const created = await cli(
      ['manage', 'create', 'real', '--content', 'draft.md', '--actor', 'agent', '--source', 'background', '--now', '2026-01-01T00:00:00Z'],
      { cwd: dir },
    );
    expect(created.code, created.stderr).toBe(0);
    mkdirSync(join(dir, '.gemini/skills/real'), { recursive: true });
    symlinkSync('../../../skills/real/SKILL.md', join(dir, '.gemini/skills/real/SKILL.md'));
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'link');
    // 200 days idle: past the archive cutoff (90).
    const run = await cli(['--json', 'curate', '--now', '2026-07-20T00:00:00Z'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { transitions: { skill: string; to: string; reason: string }[] };
    expect(report.transitions.map((t) => [t.skill, t.to])).toEqual([['real', 'stale']]);
    expect(report.transitions[0]?.reason).toContain('not archived: .gemini/skills/real/SKILL.md links to it');
    expect(existsSync(join(dir, 'skills/real/SKILL.md'))).toBe(true);
    expect(existsSync(join(dir, '.gemini/skills/real/SKILL.md'))).toBe(true);
    expect(status(dir)).toBe('');
  });
});
