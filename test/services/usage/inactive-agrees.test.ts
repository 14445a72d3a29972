import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRepoUsageStore, SkillRegistry } from '../../../src/registry/index.js';
import { cli } from '../../helpers/cli.js';
import { repoWith } from '../../helpers/repo.js';
import { skillText } from '../../helpers/tmp.js';

const now = new Date('2026-11-30T00:00:00Z');

function commitAt(dir: string, date: string, message: string): void {
  const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  execFileSync('git', ['add', '-A'], { cwd: dir, env });
  execFileSync('git', ['commit', '-q', '-m', message], { cwd: dir, env });
}

describe('inactive: one definition for list, show, the reminder and MCP', () => {
  it('a person’s commit to a skill is activity everywhere; a skill untouched for a week is inactive everywhere', async () => {
    // Both used last on 20 October; a person edits `edited` by hand on 28 November (a plain commit, no usage bump).
    const dir = repoWith({});
    const used = { use_count: 3, last_used_at: '2026-10-20T00:00:00Z' };
    execFileSync('mkdir', ['-p', join(dir, 'skills/edited'), join(dir, 'skills/quiet'), join(dir, '.skillgarden/usage')]);
    writeFileSync(join(dir, 'skills/edited/SKILL.md'), skillText('edited'));
    writeFileSync(join(dir, 'skills/quiet/SKILL.md'), skillText('quiet'));
    writeFileSync(
      join(dir, '.skillgarden/usage/laptop.json'),
      JSON.stringify({ version: 1, writer: 'laptop', skills: { edited: used, quiet: used } }),
    );
    commitAt(dir, '2026-10-01T00:00:00Z', 'two skills, used in October');
    writeFileSync(join(dir, 'skills/edited/SKILL.md'), skillText('edited', '', '# edited\n\nSteps, corrected by hand.\n'));
    commitAt(dir, '2026-11-28T00:00:00Z', 'fix a step of edited');

    const list = await cli(['list', '--json', '--now', now.toISOString()], { cwd: dir });
    const states = Object.fromEntries(
      (JSON.parse(list.stdout) as { skills: { name: string; state: string }[] }).skills.map((s) => [s.name, s.state]),
    );
    expect(states).toEqual({ edited: 'active', quiet: 'inactive' });
    const show = await cli(['show', 'edited', '--now', now.toISOString()], { cwd: dir });
    expect(show.stdout).toMatch(/last activity\s+2026-11-28/);

    const usage = createRepoUsageStore({ repoDir: dir, skillsDir: 'skills', writer: 'agent', now: () => now });
    const registry = await SkillRegistry.open({ repoDir: dir, usage, now: () => now });
    const reminder = registry.buildReminder();
    expect(reminder).toContain('edited');
    expect(reminder).not.toContain('quiet');
    expect(registry.usageOf('edited')?.last_patched_at).toBe('2026-11-28T00:00:00Z');
  }, 60_000);
});
