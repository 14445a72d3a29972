import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { cli } from '../helpers/cli.js';
import { repoWith } from '../helpers/repo.js';
import { skillText } from '../helpers/tmp.js';

const config = (repo: string) => parseYaml(readFileSync(join(repo, '.skillgarden/config.yaml'), 'utf8')) as { skills_dir?: unknown };

describe('skillgarden init', () => {
  it('writes the detected root of a known layout; --dry-run writes nothing; a second run asks for --force', async () => {
    const repo = repoWith({ '.claude/skills/a/SKILL.md': skillText('a'), '.claude/skills/b/SKILL.md': skillText('b') });
    const dry = await cli(['init', '--dry-run'], { cwd: repo });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('2 skill(s)');
    expect(existsSync(join(repo, '.skillgarden/config.yaml'))).toBe(false);
    expect((await cli(['init'], { cwd: repo })).code).toBe(0);
    expect(config(repo).skills_dir).toBe('.claude/skills');
    const again = await cli(['init'], { cwd: repo });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('--force');
  });

  it('finds skills no known layout holds (categories under a deep folder, as davila7/claude-code-templates keeps them)', async () => {
    const repo = repoWith({
      'cli-tool/components/skills/development/code-review/SKILL.md': skillText('code-review'),
      'cli-tool/components/skills/development/tdd/SKILL.md': skillText('tdd'),
      'cli-tool/components/skills/scientific/plotting/SKILL.md': skillText('plotting'),
      'README.md': '# templates\n',
    });
    // Before init: the error says where the SKILL.md files are and what to set.
    const list = await cli(['list'], { cwd: repo });
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('cli-tool/components/skills/ (3 skills)');
    expect(list.stderr).toContain('skills_dir: "cli-tool/components/skills"');
    const init = await cli(['init'], { cwd: repo });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('3 skill(s)');
    expect(config(repo).skills_dir).toBe('cli-tool/components/skills');
    const after = await cli(['--json', 'list'], { cwd: repo });
    expect((JSON.parse(after.stdout) as { skills: { name: string }[] }).skills.map((s) => s.name).sort()).toEqual([
      'code-review',
      'plotting',
      'tdd',
    ]);
  });
});
