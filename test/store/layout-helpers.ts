import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { corpusSkillsRoot } from '../helpers/corpus.js';
import { git, repoWith } from '../helpers/repo.js';

/** Copies part of a corpus repository (it keeps each skill's repository path) into a new git repository. */
export function copyCorpusRepo(corpusRepo: string, parts: readonly string[], extra: Record<string, string> = {}): string {
  const dir = repoWith({});
  for (const part of parts) cpSync(join(corpusSkillsRoot, corpusRepo, part), join(dir, part), { recursive: true });
  for (const [path, content] of Object.entries(extra)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'copy of a public layout');
  return dir;
}

export function foldersIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * The four layouts of the issue, each with manifests in the shape its
 * repository uses (written here: the corpus keeps only the skills).
 */
export function buildCorpusLayouts(): Record<string, () => string> {
  const anthropicSkills = foldersIn(join(corpusSkillsRoot, 'anthropics__skills/skills'));
  const documents = anthropicSkills.filter((s) => ['docx', 'pdf', 'pptx', 'xlsx'].includes(s));
  const examples = anthropicSkills.filter((s) => !documents.includes(s));
  const anthropics = () =>
    copyCorpusRepo('anthropics__skills', ['skills'], {
      // anthropics/skills: one marketplace at the root, plugins whose source is the root and whose skills are listed.
      '.claude-plugin/marketplace.json': json({
        name: 'anthropic-agent-skills',
        owner: { name: 'Anthropic' },
        plugins: [
          { name: 'document-skills', source: './', strict: false, skills: documents.map((s) => `./skills/${s}`) },
          { name: 'example-skills', source: './', strict: false, skills: examples.map((s) => `./skills/${s}`) },
        ],
      }),
      'template/SKILL.md':
        '---\nname: template-skill\ndescription: Replace with a description of the skill.\n---\n\n# Insert instructions below\n',
    });
  const kdense = foldersIn(join(corpusSkillsRoot, 'K-Dense-AI__claude-scientific-skills/scientific-skills'));
  const scientific = () =>
    copyCorpusRepo('K-Dense-AI__claude-scientific-skills', ['scientific-skills'], {
      // K-Dense: a marketplace listing each skill's path, no skills/ folder.
      '.claude-plugin/marketplace.json': json({
        name: 'claude-scientific-skills',
        owner: { name: 'K-Dense' },
        plugins: [{ name: 'scientific-skills', source: './', strict: false, skills: kdense.map((s) => `./scientific-skills/${s}`) }],
      }),
    });
  const plugins = foldersIn(join(corpusSkillsRoot, 'wshobson__agents/plugins'));
  const pluginManifests = Object.fromEntries(
    plugins.map((p) => [`plugins/${p}/.claude-plugin/plugin.json`, json({ name: p, version: '1.0.0', description: `The ${p} plugin.` })]),
  );
  const wshobson = () =>
    copyCorpusRepo('wshobson__agents', ['plugins'], {
      // wshobson/agents: a marketplace of plugins under plugins/, each with its own plugin.json and skills/.
      '.claude-plugin/marketplace.json': json({
        name: 'claude-code-workflows',
        owner: { name: 'Seth Hobson' },
        plugins: plugins.map((p) => ({ name: p, source: `./plugins/${p}`, description: `The ${p} plugin.` })),
      }),
      ...pluginManifests,
    });
  const superpowers = () =>
    copyCorpusRepo('obra__superpowers', ['skills'], {
      // obra/superpowers: the repository is one plugin.
      '.claude-plugin/plugin.json': json({ name: 'superpowers', version: '4.0.0', description: 'Core skills library.' }),
    });
  return { anthropics, scientific, wshobson, superpowers };
}
