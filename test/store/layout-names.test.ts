import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { git, repoWith } from '../helpers/repo.js';
import { tempDir, writeTree } from '../helpers/tmp.js';

const run = promisify(execFile);
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixtures = join(repoRoot, 'test', 'fixtures', 'layouts');

/** The binary, as a user runs it: exit code and both streams, never a throw. */
async function sg(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(repoRoot, 'bin', 'skillgarden.js'), ...args], { cwd });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A git copy of a fixture layout, with links made as `links` says (path → target), committed. */
function copyLayout(name: string, links: Record<string, string> = {}): string {
  const dir = repoWith({});
  cpSync(join(fixtures, name), dir, { recursive: true });
  for (const [path, target] of Object.entries(links)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    symlinkSync(target, join(dir, path));
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', `copy of the ${name} layout`);
  return dir;
}

async function listed(dir: string): Promise<{ name: string; path: string; state: string }[]> {
  const result = await sg(dir, 'list', '--json');
  expect(result.stderr).not.toContain('    at ');
  return (JSON.parse(result.stdout) as { skills: { name: string; path: string; state: string }[] }).skills;
}

const names = (skills: { name: string }[]) => skills.map((s) => s.name).sort();

describe('names as the clients name them', () => {
  it('serves two plugins’ setup skills as alpha:setup and beta:setup; a plain name works when it is unambiguous', async () => {
    const dir = copyLayout('marketplace-shared-names');
    expect(names(await listed(dir))).toEqual(['alpha:lint', 'alpha:setup', 'beta:setup', 'notes', 'solo:solo']);
    const validate = JSON.parse((await sg(dir, 'validate', '--json')).stdout) as { skills: number; findings: { code: string }[] };
    expect(validate.skills).toBe(5);
    expect(validate.findings.map((f) => f.code)).not.toContain('library/duplicate-name');

    const ambiguous = await sg(dir, 'show', 'setup');
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain('alpha:setup, beta:setup');
    expect(JSON.parse((await sg(dir, 'show', 'beta:setup', '--json')).stdout).path).toBe('plugins/beta/skills/setup');
    expect(JSON.parse((await sg(dir, 'show', 'lint', '--json')).stdout).name).toBe('alpha:lint');

    const load = await sg(dir, 'load', 'setup');
    expect(load.stdout + load.stderr).toContain('alpha:setup, beta:setup');
    expect((await sg(dir, 'load', 'beta:setup')).stdout).toContain('# setup');
    expect((await sg(dir, 'load', 'lint')).stdout).toContain('# lint');
    expect((await sg(dir, 'reminder')).stdout).toContain('beta:setup');

    const archive = await sg(dir, 'archive', 'setup');
    expect(archive.code).toBe(1);
    expect(archive.stderr).toContain('alpha:setup, beta:setup');
    expect((await sg(dir, 'archive', 'beta:setup')).code).toBe(0);
    expect(names((await listed(dir)).filter((s) => s.state !== 'archived'))).toEqual(['alpha:lint', 'alpha:setup', 'notes', 'solo:solo']);
    // Now one plugin has it: the plain name is enough.
    expect((await sg(dir, 'manage', 'patch', 'setup', '--old', 'Steps.', '--new', 'Steps, patched.')).code).toBe(0);
    expect((await sg(dir, 'load', 'alpha:setup')).stdout).toContain('Steps, patched.');
  }, 60_000);

  it('walks Hermes categories four deep, and no deeper', async () => {
    const dir = copyLayout('hermes-deep');
    const skills = await listed(dir);
    expect(names(skills)).toEqual(['arxiv', 'axolotl', 'four-deep', 'llama-cpp', 'notes']);
    expect(skills.find((s) => s.name === 'llama-cpp')?.path).toBe('mlops/inference/llama-cpp');
    expect(JSON.parse((await sg(dir, 'validate', '--json')).stdout).skills).toBe(5);
  }, 60_000);

  it('validates nested skills and reports them; `validate` and `validate .` check the same set', async () => {
    const dir = copyLayout('nested');
    expect(names(await listed(dir))).toEqual(['debugging', 'plain']);
    const whole = JSON.parse((await sg(dir, 'validate', '--json')).stdout) as {
      skills: number;
      findings: { code: string; file: string }[];
    };
    const dot = JSON.parse((await sg(dir, 'validate', '.', '--json')).stdout) as typeof whole;
    expect(whole.skills).toBe(4);
    expect(dot.skills).toBe(whole.skills);
    // The same skills checked, the same problems found; the library's own findings come with the library.
    expect(dot.findings).toEqual(whole.findings.filter((f) => !f.code.startsWith('library/')));
    expect(whole.findings.filter((f) => f.code === 'library/nested-skill').map((f) => f.file)).toEqual([
      'skills/debugging/deep/er/SKILL.md',
      'skills/debugging/root-cause/SKILL.md',
    ]);
  }, 60_000);

  it('serves a symlinked alias once as its target; a dangling or outside link is a finding on its own path and hides nothing', async () => {
    const outside = tempDir('skillgarden-outside-');
    writeTree(outside, { 'SKILL.md': '---\nname: outside\ndescription: Outside. Use never.\n---\n# Outside\n' });
    const dir = copyLayout('links', {
      '.gemini/skills/real/SKILL.md': '../../../skills/real/SKILL.md',
      'skills/alias': 'real',
      '.gemini/skills/other/SKILL.md': '../../../skills/gone/SKILL.md',
      '.gemini/skills/persona/SKILL.md': '../../../docs/persona.md',
      'skills/outside': outside,
    });
    const skills = await listed(dir);
    expect(skills.map((s) => [s.name, s.path]).sort()).toEqual([
      ['other', 'skills/other'],
      ['persona', '.gemini/skills/persona'],
      ['real', 'skills/real'],
    ]);
    const validate = JSON.parse((await sg(dir, 'validate', '--json')).stdout) as { findings: { code: string; file: string }[] };
    const byCode = (code: string) => validate.findings.filter((f) => f.code === code).map((f) => f.file);
    expect(byCode('library/broken-link')).toEqual(['.gemini/skills/other/SKILL.md']);
    expect(byCode('library/symlink-escapes')).toEqual(['skills/outside/SKILL.md']);
    expect(byCode('library/duplicate-name')).toEqual([]);
    expect((await sg(dir, 'load', 'other')).stdout).toContain('# other');
    expect((await sg(dir, 'load', 'real')).stdout).toContain('# real');
    // The alias's own name finds its target; nothing crashes on the links.
    expect(JSON.parse((await sg(dir, 'show', 'real', '--json')).stdout).path).toBe('skills/real');
    for (const args of [['plan'], ['scan'], ['curate', '--dry-run']]) {
      const result = await sg(dir, ...args);
      expect(result.stderr, args.join(' ')).not.toMatch(/ENOENT|\n\s+at /);
      expect(result.code, args.join(' ')).toBeLessThan(2);
    }
    const archive = await sg(dir, 'archive', 'alias');
    expect(archive.stderr).not.toContain('not committed');
  }, 90_000);
});
