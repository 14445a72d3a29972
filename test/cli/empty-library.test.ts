import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { repoWith } from '../helpers/repo.js';

const now = ['--now', '2026-11-30T00:00:00Z'];

/**
 * Nothing silently empty: every command that reads the library, run where it
 * finds no skill, exits 2 and says where it looked and how to configure it;
 * `--allow-empty` (a new library) lets the ones that take it go on.
 */
describe('an empty library', () => {
  const commands: { argv: string[]; allowEmpty: boolean }[] = [
    { argv: ['validate', '--no-scan'], allowEmpty: true },
    { argv: ['scan'], allowEmpty: true },
    { argv: ['list'], allowEmpty: true },
    { argv: ['reminder'], allowEmpty: true },
    { argv: ['curate', '--dry-run'], allowEmpty: true },
    { argv: ['plan'], allowEmpty: true },
    { argv: ['load', 'anything'], allowEmpty: false },
    { argv: ['show', 'anything'], allowEmpty: false },
  ];

  for (const { argv, allowEmpty } of commands) {
    it(`${argv[0]} exits 2, naming where it looked and skills_dir`, async () => {
      // A library people have, configured wrong: skills under plugins/, skills_dir naming an empty folder.
      const dir = repoWith({
        '.skillgarden/config.yaml': 'skills_dir: skills\n',
        'skills/.gitkeep': '',
        'plugins/a/skills/one/x.md': 'not a skill\n',
      });
      const run = await cli([...now, ...argv], { cwd: dir });
      expect(run.code, run.stdout).toBe(2);
      expect(run.stderr).toContain('no skills found');
      expect(run.stderr).toContain('skills/ (skills_dir)');
      expect(run.stderr).toContain('skills_dir');
      if (allowEmpty) {
        const allowed = await cli([...now, ...argv, '--allow-empty'], { cwd: dir });
        expect(allowed.code, allowed.stderr).toBe(0);
      }
    });
  }

  it('--help says where skills are found and how to set skills_dir (a folder, a glob, a list)', async () => {
    const help = await cli(['--help'], { cwd: repoWith({}) });
    expect(help.stdout).toContain('skills_dir');
    expect(help.stdout).toContain('plugins/*/skills');
    expect(help.stdout).toContain('.claude-plugin/marketplace.json');
    expect(help.stdout).toContain('--allow-empty');
  });
});
