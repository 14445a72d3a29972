import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const topics = ['deploy', 'review', 'plot', 'search', 'paper', 'test', 'debug', 'release', 'data', 'docs'];
const verbs = ['check', 'write', 'run', 'fix', 'build', 'scan', 'merge', 'draft'];

/** Name of the i-th generated skill: deterministic, kebab-case, unique. */
export function generatedName(i: number): string {
  return `${topics[i % topics.length]}-${verbs[Math.floor(i / topics.length) % verbs.length]}-${i}`;
}

/** Writes `count` realistic skills (frontmatter, a body with links, a reference file) under `<root>/skills`. */
export function generateLibrary(root: string, count: number): string {
  const skillsDir = join(root, 'skills');
  for (let i = 0; i < count; i++) {
    const name = generatedName(i);
    const category = i % 3 === 0 ? `category-${i % 7}` : undefined;
    const dir = category ? join(skillsDir, category, name) : join(skillsDir, name);
    mkdirSync(join(dir, 'references'), { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'), skillBody(name, i));
    writeFileSync(join(dir, 'references', 'details.md'), `# Details for ${name}\n\n${'More detail. '.repeat(40)}\n`);
  }
  return skillsDir;
}

function skillBody(name: string, i: number): string {
  const steps = Array.from({ length: 12 }, (_, k) => `${k + 1}. Step ${k + 1} of ${name}: run \`tool-${k}\` and check the output.`);
  return [
    '---',
    `name: ${name}`,
    `description: Handles ${name.replace(/-/g, ' ')} tasks end to end. Use when the user asks to ${name.split('-')[1]} ${name.split('-')[0]} work.`,
    'license: MIT',
    'metadata:',
    '  author: bench',
    `  version: "1.${i % 10}.0"`,
    '---',
    `# ${name}`,
    '',
    'Read [the details](references/details.md) first.',
    '',
    ...steps,
    '',
  ].join('\n');
}
