import { describe, expect, it } from 'vitest';
import { buildEntry, compilePathMatcher, findClosestNames, normalizeTouchedPath } from '../../../src/core/registry/index.js';
import { readToolList } from '../../../src/core/skill/index.js';
import { parseSkill } from '../../../src/core/skill/index.js';

const location = { name: 'deploy', category: undefined, dir: '/s/deploy', relativeDir: 'deploy' };

describe('buildEntry', () => {
  it('reads the runtime fields', () => {
    const text = `---\nname: deploy-it\ndescription: Ships.\nwhen_to_use: On release.\nargument-hint: "[env]"\nuser-invocable: false\ndisable-model-invocation: true\ncontext: fork\nallowed-tools: Read, Bash(git add *)\nmodel: haiku\npaths: "src/**, docs/*.md"\nmax-steps: 4\npinned: true\n---\nBody\n`;
    const { entry, valid } = buildEntry(parseSkill(text, { file: 'deploy/SKILL.md' }), location);
    expect(valid).toBe(true);
    expect(entry).toMatchObject({
      name: 'deploy',
      alias: 'deploy-it',
      whenToUse: 'On release.',
      argumentHint: '[env]',
      userInvocable: false,
      modelInvocable: false,
      context: 'fork',
      allowedTools: ['Read', 'Bash(git add *)'],
      model: 'haiku',
      paths: ['src/**', 'docs/*.md'],
      maxSteps: 4,
      pinned: true,
      body: 'Body\n',
    });
  });

  it.each([
    ['no frontmatter', '# just markdown\n', 'skill/frontmatter-missing'],
    ['no description', '---\nname: deploy\n---\nBody\n', 'registry/no-description'],
    ['broken yaml', '---\nname: deploy\ndescription: [unclosed\n---\nBody\n', undefined],
  ])('is invalid with %s', (_, text, code) => {
    const { valid, entry } = buildEntry(parseSkill(text, { file: 'deploy/SKILL.md' }), location);
    expect(valid).toBe(false);
    if (code) expect(entry.findings.map((f) => f.code)).toContain(code);
  });
});

describe('readToolList', () => {
  it.each([
    ['Read Grep', ['Read', 'Grep']],
    ['Read, Bash(git add *), Write', ['Read', 'Bash(git add *)', 'Write']],
    [
      ['Read', 7, ' Grep '],
      ['Read', 'Grep'],
    ],
    [undefined, []],
  ])('%j', (value, expected) => {
    expect(readToolList(value)).toEqual(expected);
  });
});

describe('path matching', () => {
  it.each([
    [['src/**/*.ts'], 'src/a/b/c.ts', true],
    [['src/**/*.ts'], 'test/a.ts', false],
    [['*.{md,txt}'], 'README.md', true],
    [['file?.js'], 'file1.js', true],
    [['**'], 'any/where/at/all', true],
    [['no-such-dir/**'], 'src/a.ts', false],
    [['[unclosed'], '[unclosed', false],
    [['.github/**'], '.github/workflows/ci.yml', true],
  ])('%j matches %s: %s', (globs, path, expected) => {
    expect(compilePathMatcher(globs)(normalizeTouchedPath(path))).toBe(expected);
  });

  it('normalizes ./ and backslashes', () => {
    expect(normalizeTouchedPath('./src\\a.ts')).toBe('src/a.ts');
  });
});

describe('findClosestNames', () => {
  it('suggests near names and prefixes, nearest first', () => {
    expect(findClosestNames('deploi', ['deploy', 'deploy-checklist', 'unrelated', 'dep'])).toEqual(['deploy', 'dep']);
    expect(findClosestNames('deploy', ['deploy-checklist', 'unrelated'])).toEqual(['deploy-checklist']);
    expect(findClosestNames('zzzzzz', ['deploy'])).toEqual([]);
  });
});
