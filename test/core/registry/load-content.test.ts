import { describe, expect, it } from 'vitest';
import {
  buildForkSpec,
  findInlineShell,
  parseSlashCommand,
  renderInlineLoad,
  renderSkillContent,
  replaceInlineShell,
  splitArguments,
  substituteArguments,
  substituteVariables,
} from '../../../src/core/registry/index.js';
import { entry } from './fixtures.js';

const values = { skillDir: '/lib/skills/x', sessionId: 'sess-1' };

describe('substituteVariables', () => {
  it.each([
    ['${SKILL_DIR}/scripts/run.sh', '/lib/skills/x/scripts/run.sh'],
    ['${HERMES_SKILL_DIR}/a', '/lib/skills/x/a'],
    ['id ${SESSION_ID} ${HERMES_SESSION_ID} ${CLAUDE_SESSION_ID}', 'id sess-1 sess-1 sess-1'],
    ['${OTHER} and $SKILL_DIR stay', '${OTHER} and $SKILL_DIR stay'],
  ])('%s', (input, expected) => {
    expect(substituteVariables(input, values)).toBe(expected);
  });
});

describe('arguments', () => {
  it.each([
    ['a b c', ['a', 'b', 'c']],
    ['  "two words" one ', ['two words', 'one']],
    ["'it''s' x", ['its', 'x']],
    ['a\\ b', ['a b']],
    ['""', ['']],
    ['', []],
  ])('splits %j', (raw, expected) => {
    expect(splitArguments(raw)).toEqual(expected);
  });

  it.each([
    ['Fix issue $ARGUMENTS now', '42 high', 'Fix issue 42 high now'],
    ['first $0, second $1, third $2.', 'a "b c"', 'first a, second b c, third .'],
    ['indexed $ARGUMENTS[1]', 'a b', 'indexed b'],
    ['no placeholder', 'x y', 'no placeholder\n\nARGUMENTS: x y\n'],
    ['no placeholder', '', 'no placeholder'],
  ])('substitutes into %j', (body, raw, expected) => {
    expect(substituteArguments(body, raw)).toBe(expected);
  });

  it('fills arguments only when some were passed', () => {
    const skill = entry('x', { body: 'awk "{print $0}" ${SKILL_DIR}' });
    expect(renderSkillContent(skill, values)).toBe('awk "{print $0}" /lib/skills/x');
    expect(renderSkillContent(skill, { ...values, arguments: 'file' })).toBe('awk "{print file}" /lib/skills/x');
  });
});

describe('load rendering', () => {
  it('inline: base directory, content and the allowed tools', () => {
    const text = renderInlineLoad(entry('x', { allowedTools: ['Read', 'Bash(git add *)'] }), 'Steps.', '/d');
    expect(text).toBe(
      'Base directory for this skill: /d\n\nSteps.\n\nAllowed tools while following this skill (no permission prompt needed): Read, Bash(git add *)\n',
    );
  });

  it('fork: a capped sub-agent spec', () => {
    const skill = entry('x', { context: 'fork', model: 'haiku', agent: 'Explore', effort: 'low', maxSteps: 50, allowedTools: ['Read'] });
    const spec = buildForkSpec(skill, 'Do it.', { ...values, arguments: 'the repo' });
    expect(spec).toMatchObject({
      skill: 'x',
      prompt: 'the repo',
      model: 'haiku',
      agent: 'Explore',
      effort: 'low',
      maxSteps: 10,
      allowedTools: ['Read'],
    });
    expect(spec.systemPrompt).toContain('Do it.');
    expect(buildForkSpec(entry('y', { maxSteps: 3 }), '', values).maxSteps).toBe(3);
  });

  it('finds and replaces inline shell spans', () => {
    const body = 'Branch: !`git branch --show-current`, status !`git status -s` done';
    const spans = findInlineShell(body);
    expect(spans.map((s) => s.command)).toEqual(['git branch --show-current', 'git status -s']);
    expect(replaceInlineShell(body, spans, ['main', 'clean'])).toBe('Branch: main, status clean done');
  });
});

describe('parseSlashCommand', () => {
  it.each([
    ['/deploy prod now', { name: 'deploy', arguments: 'prod now' }],
    ['/deploy', { name: 'deploy', arguments: '' }],
    ['  /deploy  "a b"  ', { name: 'deploy', arguments: '"a b"' }],
    ['deploy', undefined],
    ['/', undefined],
    ['/a/b', undefined],
  ])('%j', (text, expected) => {
    expect(parseSlashCommand(text)).toEqual(expected);
  });
});
