import { mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { seededRandom } from '../helpers/random.js';
import { git, repoWith } from '../helpers/repo.js';
import { skillText, tempDir, writeTree } from '../helpers/tmp.js';

/**
 * Random trees of skills, categories, plugins and symbolic links (to a skill inside the repository, to nothing,
 * out of it). Whatever the tree, every readable skill is served exactly once, under the name its client uses,
 * and no command throws.
 */
interface Tree {
  files: Record<string, string>;
  links: Record<string, string>;
  /** Real skill folders, each with the id it must be served under. */
  served: Map<string, string>;
  /** The kinds of link made: the test checks the seeds cover them all. */
  kinds: Set<string>;
  /** Links that resolve to nothing: each a finding on its own path (a SKILL.md link's file, a folder link's folder). */
  dangling: string[];
}

const pool = ['setup', 'lint', 'deploy', 'notes', 'review', 'ship', 'audit', 'draft', 'triage', 'report'];

function generateTree(random: () => number, outside: string): Tree {
  if (random() < 0.25) return generateHermesTree(random);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const files: Record<string, string> = {};
  const links: Record<string, string> = {};
  const served = new Map<string, string>();
  const kinds = new Set<string>();
  const dangling: string[] = [];
  // Names are unique within a namespace (the plain roots share one; each plugin has its own); across plugins they repeat.
  const plainNames = [...pool].sort(() => random() - 0.5);
  const addSkill = (folder: string, id: string, name: string) => {
    files[`${folder}/SKILL.md`] = skillText(name);
    served.set(folder, id);
  };
  for (const root of ['skills', '.claude/skills'].filter(() => random() < 0.7)) {
    for (let i = 0; i < 1 + Math.floor(random() * 3) && plainNames.length > 0; i++) {
      const name = plainNames.pop()!;
      const category = random() < 0.4 ? `${pick(['ops', 'dev', 'docs'])}/` : '';
      addSkill(`${root}/${category}${name}`, name, name);
    }
  }
  const plugins = Math.floor(random() * 4);
  for (let p = 0; p < plugins; p++) {
    const plugin = `plugin-${p}`;
    files[`plugins/${plugin}/.claude-plugin/plugin.json`] = JSON.stringify({ name: plugin });
    const names = [...pool].sort(() => random() - 0.5).slice(0, 1 + Math.floor(random() * 3));
    for (const name of names) addSkill(`plugins/${plugin}/skills/${random() < 0.3 ? 'cat/' : ''}${name}`, `${plugin}:${name}`, name);
  }
  if (served.size === 0) addSkill('skills/only', 'only', 'only');
  const targets = [...served.keys()];
  for (let l = 0; l < Math.floor(random() * 6); l++) {
    const name = pick(pool);
    const kind = pick(['alias-file', 'alias-folder', 'dangling-file', 'dangling-folder', 'outside-file', 'outside-folder'] as const);
    const base = pick(['.gemini/skills', 'skills']);
    const at = `${base}/${name}`;
    if (served.has(at) || Object.keys(files).some((f) => f.startsWith(`${at}/`)) || Object.keys(links).some((k) => k.startsWith(at)))
      continue;
    const up = '../'.repeat(at.split('/').length);
    kinds.add(kind);
    if (kind === 'alias-file') links[`${at}/SKILL.md`] = `${up}${pick(targets)}/SKILL.md`;
    if (kind === 'alias-folder') links[at] = `${'../'.repeat(at.split('/').length - 1)}${pick(targets)}`;
    if (kind === 'dangling-file') links[`${at}/SKILL.md`] = `${up}nowhere/${name}/SKILL.md`;
    if (kind === 'dangling-folder') links[at] = `../nowhere-${name}`;
    if (kind === 'dangling-file') dangling.push(`${at}/SKILL.md`);
    if (kind === 'dangling-folder') dangling.push(at);
    if (kind === 'outside-file') links[`${at}/SKILL.md`] = join(outside, 'SKILL.md');
    if (kind === 'outside-folder') links[at] = outside;
  }
  return { files, links, served, kinds, dangling };
}

/**
 * A Hermes Agent library (`.bundled_manifest` at the root): categories up to four deep, as Hermes walks them (one
 * deeper is never served), with folder links at the root to a skill or to nothing.
 */
function generateHermesTree(random: () => number): Tree {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const files: Record<string, string> = { '.bundled_manifest': 'bundled\n' };
  const links: Record<string, string> = {};
  const served = new Map<string, string>();
  const kinds = new Set<string>(['hermes']);
  const dangling: string[] = [];
  const names = [...pool].sort(() => random() - 0.5);
  for (let i = 0; i < 1 + Math.floor(random() * 5); i++) {
    const name = names.pop()!;
    const depth = Math.floor(random() * 6);
    const folder = [...Array.from({ length: depth }, () => pick(['mlops', 'inference', 'research', 'tools'])), name].join('/');
    files[`${folder}/SKILL.md`] = skillText(name);
    if (depth <= 4) served.set(folder, name);
    else kinds.add('hermes-too-deep');
  }
  if (served.size === 0) {
    files['only/SKILL.md'] = skillText('only');
    served.set('only', 'only');
  }
  for (let l = 0; l < 1 + Math.floor(random() * 2) && names.length > 0; l++) {
    const at = names.pop()!;
    if (random() < 0.5) {
      links[at] = pick([...served.keys()]);
      kinds.add('hermes-alias-folder');
    } else {
      links[at] = `nowhere-${at}`;
      dangling.push(at);
      kinds.add('hermes-dangling-folder');
    }
  }
  return { files, links, served, kinds, dangling };
}

function makeRepo(tree: Tree): string {
  const dir = repoWith({});
  writeTree(dir, tree.files);
  for (const [path, target] of Object.entries(tree.links)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    symlinkSync(target, join(dir, path));
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'generated library');
  return dir;
}

describe('random trees of skills, plugins and links', () => {
  it('serve every readable skill exactly once, under its client name, and no command throws', async () => {
    const outside = tempDir('skillgarden-outside-');
    writeTree(outside, { 'SKILL.md': skillText('outside') });
    const kinds = new Set<string>();
    for (let seed = 1; seed <= 16; seed++) {
      const tree = generateTree(seededRandom(seed), outside);
      for (const kind of tree.kinds) kinds.add(kind);
      const dir = makeRepo(tree);
      const context = `seed ${seed}: ${JSON.stringify(tree.links)}`;
      const list = await cli(['list', '--json'], { cwd: dir });
      expect(list.stderr, context).not.toMatch(/\n\s+at /);
      const skills = (JSON.parse(list.stdout) as { skills: { name: string; path: string }[] }).skills;
      expect(skills.map((s) => [s.path, s.name]).sort(), context).toEqual([...tree.served].sort());

      const validate = await cli(['validate', '--json'], { cwd: dir });
      expect(validate.stderr, context).not.toMatch(/\n\s+at /);
      const validated = JSON.parse(validate.stdout) as { skills: number; findings: { code: string; file: string }[] };
      expect(validated.skills, context).toBe(tree.served.size);
      const broken = validated.findings.filter((f) => f.code === 'library/broken-link').map((f) => f.file);
      expect(broken.sort(), context).toEqual([...tree.dangling].sort());

      for (const id of new Set(tree.served.values())) {
        const show = await cli(['show', id, '--json'], { cwd: dir });
        expect(show.code, `${context} show ${id}`).toBe(0);
        const load = await cli(['load', id], { cwd: dir });
        expect([load.code, load.stderr], `${context} load ${id}`).toEqual([0, '']);
        const plain = id.slice(id.indexOf(':') + 1);
        const byPlain = await cli(['show', plain], { cwd: dir });
        const sharing = [...tree.served.values()].filter((v) => v === plain || v.endsWith(`:${plain}`));
        expect(byPlain.code, `${context} show ${plain}`).toBe(sharing.length > 1 && !sharing.includes(plain) ? 1 : 0);
      }
      for (const args of [['plan'], ['scan'], ['reminder'], ['curate', '--dry-run']]) {
        const result = await cli(args, { cwd: dir });
        expect(result.stderr, `${context} ${args[0]}`).not.toMatch(/ENOENT|\n\s+at /);
        expect(result.code, `${context} ${args[0]}`).toBeLessThan(2);
      }
    }
    // Every kind of link, and Hermes trees with aliases, dangling links and skills too deep, came up in the seeds.
    expect([...kinds].sort()).toEqual([
      'alias-file',
      'alias-folder',
      'dangling-file',
      'dangling-folder',
      'hermes',
      'hermes-alias-folder',
      'hermes-dangling-folder',
      'hermes-too-deep',
      'outside-file',
      'outside-folder',
    ]);
  }, 240_000);
});
