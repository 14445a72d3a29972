import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const action = parse(read('action.yml')) as { inputs: Record<string, unknown>; outputs: Record<string, unknown>; runs: { using: string } };
const docs = read('docs/action.md');
const section = (title: string) => docs.slice(docs.indexOf(`## ${title}\n`), docs.indexOf('\n## ', docs.indexOf(`## ${title}\n`) + 1));
const sources = readdirSync(join(root, 'src', 'action'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => read(join('src', 'action', f)))
  .join('\n');

describe("action.yml, the Action's sources and docs/action.md agree", () => {
  it.each(Object.keys(action.inputs))('input %s is read by the Action and has a row in the docs', (name) => {
    expect(sources).toContain(`'${name}'`);
    expect(section('Inputs')).toMatch(new RegExp(`^\\| \`${name}\` +\\|`, 'm'));
  });

  it.each(Object.keys(action.outputs))('output %s is set by the Action and documented', (name) => {
    expect(sources).toContain(`'${name}'`);
    expect(section('Outputs')).toContain(`\`${name}\``);
  });

  it("the publishing inputs are in the README's Action table too, and the docs state node24's runner version", () => {
    const readme = read('README.md');
    for (const name of ['draft', 'reviewers', 'team-reviewers', 'assignees', 'max-pull-requests', 'branch-suffix', 'sign-commits'])
      expect(readme).toMatch(new RegExp(`^\\| \`${name}\` +\\|`, 'm'));
    expect(action.runs.using).toBe('node24');
    expect(docs).toContain('runner v2.327.1 or later');
  });
});
