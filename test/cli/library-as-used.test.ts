import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { repoWith } from '../helpers/repo.js';
import { skillText } from '../helpers/tmp.js';

interface JsonFinding {
  code: string;
  severity: string;
  file: string;
  message: string;
  hint: string;
}

async function validate(dir: string): Promise<{ code: number; findings: JsonFinding[] }> {
  const run = await cli(['validate', '--json', '--no-scan'], { cwd: dir });
  return { code: run.code, findings: (JSON.parse(run.stdout) as { findings: JsonFinding[] }).findings };
}

const codes = (findings: readonly JsonFinding[]) => findings.map((f) => `${f.severity} ${f.code}`);

describe('links as the library is used', () => {
  it('a project skill may link to its repository\'s source: a warning that names the file, no "copy it in"', async () => {
    const dir = repoWith({
      'Cargo.toml': '[package]\nname = "app"\n',
      'src/main.rs': 'fn main() {}\n',
      '.claude/skills/release/SKILL.md': skillText('release', '', '# Release\n\nStart at [main](../../../src/main.rs).\n'),
    });
    const run = await validate(dir);
    expect(run.code).toBe(0);
    expect(codes(run.findings)).toEqual(['warning skill/link-outside-skills']);
    expect(run.findings[0]?.message).toContain('src/main.rs');
    expect(run.findings[0]?.hint).not.toMatch(/copy/i);
  });

  it('a link that leaves the repository is still an error, and a missing file a warning', async () => {
    const dir = repoWith({
      '.claude/skills/release/SKILL.md': skillText('release', '', '[a](../../../../etc/passwd) [b](../../../src/gone.rs)\n'),
    });
    const run = await validate(dir);
    expect(run.code).toBe(1);
    expect(codes(run.findings)).toEqual(['error skill/link-escapes', 'warning skill/link-missing']);
  });

  it('links between skills of one library are fine across plugins, under the default `links: library`', async () => {
    const dir = repoWith({
      '.claude-plugin/marketplace.json': JSON.stringify({
        name: 'm',
        owner: { name: 'o' },
        plugins: [
          { name: 'a', source: './plugins/a' },
          { name: 'b', source: './plugins/b' },
        ],
      }),
      'plugins/a/.claude-plugin/plugin.json': '{"name": "a"}\n',
      'plugins/b/.claude-plugin/plugin.json': '{"name": "b"}\n',
      'plugins/a/skills/one/SKILL.md': skillText(
        'one',
        '',
        'Then [two](../../../b/skills/two/SKILL.md) and [refs](../../../b/skills/two/references/).\n',
      ),
      'plugins/b/skills/two/SKILL.md': skillText('two', '', 'Back to [one](../../../a/skills/one/).\n'),
      'plugins/b/skills/two/references/x.md': 'x\n',
    });
    const run = await validate(dir);
    expect(codes(run.findings)).toEqual([]);
    expect(run.code).toBe(0);
  });

  it('`links: skill` keeps every link in the skill folder', async () => {
    const dir = repoWith({
      '.skillgarden/config.yaml': 'links: skill\n',
      'src/main.rs': 'fn main() {}\n',
      'skills/a/SKILL.md': skillText('a', '', '[b](../b/SKILL.md) [main](../../src/main.rs)\n'),
      'skills/b/SKILL.md': skillText('b'),
    });
    expect(codes((await validate(dir)).findings)).toEqual(['error skill/link-escapes', 'error skill/link-escapes']);
  });
});

describe('plugin manifests by dialect', () => {
  const marketplace = (plugins: string[]) =>
    JSON.stringify({ name: 'm', owner: { name: 'o' }, plugins: plugins.map((p) => ({ name: p, source: `./plugins/${p}` })) });

  it('a Claude Code plugin.json without $schema is not judged as an Agent Plugin', async () => {
    const claudeStyle = (name: string) =>
      JSON.stringify({
        name,
        version: '1.0.0',
        author: { name: 'x' },
        commands: ['./commands/run.md'],
        hooks: './hooks/hooks.json',
        strict: false,
      });
    const dir = repoWith({
      '.claude-plugin/marketplace.json': marketplace(['a', 'b']),
      'plugins/a/plugin.json': claudeStyle('a'),
      'plugins/a/skills/one/SKILL.md': skillText('one'),
      'plugins/b/.claude-plugin/plugin.json': claudeStyle('b'),
      'plugins/b/skills/two/SKILL.md': skillText('two'),
    });
    const run = await validate(dir);
    expect(codes(run.findings)).toEqual([]);
    expect(run.code).toBe(0);
  });

  it("checks Claude Code's own rules: a name, kebab-case, paths as strings", async () => {
    const dir = repoWith({
      'plugins/a/.claude-plugin/plugin.json': JSON.stringify({ name: 'My Plugin', skills: 3 }),
      'plugins/a/skills/one/SKILL.md': skillText('one'),
      'plugins/b/.claude-plugin/plugin.json': JSON.stringify({ description: 'no name' }),
      'plugins/b/skills/two/SKILL.md': skillText('two'),
    });
    const run = await validate(dir);
    expect(run.findings.map((f) => `${f.file} ${f.severity} ${f.code}`).sort()).toEqual([
      'plugins/a/.claude-plugin/plugin.json error manifest/invalid',
      'plugins/a/.claude-plugin/plugin.json warning manifest/plugin-name',
      'plugins/b/.claude-plugin/plugin.json error manifest/invalid',
    ]);
  });

  it('a plugin.json whose $schema names agent-plugins.org answers to Agent Plugins 1.0', async () => {
    const dir = repoWith({
      'plugin.json': JSON.stringify({
        $schema: 'https://agent-plugins.org/schemas/0.9.0/plugin.schema.json',
        name: 'Bad--Name',
        commands: './c',
      }),
      'skills/one/SKILL.md': skillText('one'),
    });
    const run = await validate(dir);
    expect(codes(run.findings).sort()).toEqual(['error manifest/invalid', 'error manifest/invalid', 'warning manifest/unknown-field']);
    expect(run.findings.map((f) => f.message).join('\n')).toContain('"$schema" must be https://agent-plugins.org/');
  });
});

describe('messages say what is wrong, once, with counts that match', () => {
  it('three copies of a name: each finding counts three and lists the three', async () => {
    const dir = repoWith({
      'skills/a/dup/SKILL.md': skillText('dup'),
      'skills/b/dup/SKILL.md': skillText('dup'),
      'skills/c/dup/SKILL.md': skillText('dup'),
    });
    const dups = (await validate(dir)).findings.filter((f) => f.code === 'library/duplicate-name');
    expect(dups).toHaveLength(2);
    for (const f of dups) expect(f.message).toBe('3 skills are named "dup": skills/a/dup, skills/b/dup and skills/c/dup');
  });

  it('never proposes renaming a folder to a name that is no folder name', async () => {
    const dir = repoWith({ 'skills/bad-name/SKILL.md': skillText('Bad Name') });
    const mismatch = (await validate(dir)).findings.find((f) => f.code === 'skill/name-mismatch');
    expect(mismatch?.hint).toContain('Set `name: bad-name`');
    expect(mismatch?.hint).not.toContain('rename the folder');
  });

  it("scan evidence: the whole sudo command, and a special finding's detail said once", async () => {
    const dir = repoWith({
      'skills/inst/SKILL.md': skillText('inst', '', 'Run `sudo apt-get install -y libfoo-dev` first.\n\nx\u200by\n'),
    });
    const run = await cli(['scan'], { cwd: dir });
    expect(run.stdout).toContain('runs a command as root: sudo apt-get install -y libfoo-dev');
    expect(run.stdout).toMatch(/zero-width characters: U\+200B\n/);
    expect(run.stdout).toContain('1 skill scanned:');
  });

  it('publish, refused, counts the skills it checked', async () => {
    const dir = repoWith({ 'skills/good/SKILL.md': skillText('good'), 'skills/bad/SKILL.md': skillText('Bad_Name') });
    const run = await cli(['publish', '--out', 'site'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(/^2 skills checked: 2 errors/);
  });
});
