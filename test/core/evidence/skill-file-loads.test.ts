import { describe, expect, it } from 'vitest';
import { parseSkillLoads } from '../../../src/core/patterns/uses.js';

describe('a read of a SKILL.md loads the skill its folder names, wherever the folder is', () => {
  it.each([
    ['Read', { file_path: '/home/u/src/skills-repo/document-skills/pdf/SKILL.md' }, undefined, 'pdf'],
    ['Read', { file_path: '/work/app/release-cut/SKILL.md' }, undefined, 'release-cut'],
    ['Read', { file_path: 'plugins/ops/skills/deploy/SKILL.md' }, undefined, 'deploy'],
    ['view', { path: 'db-migrate/SKILL.md' }, undefined, 'db-migrate'],
    ['Bash', { command: "cat '/srv/library/pdf-extract/SKILL.md'" }, 'cat', 'pdf-extract'],
    ['Read', { file_path: 'SKILL.md' }, undefined, undefined],
    ['Read', { file_path: '/work/app/release-cut/SKILL.md.bak' }, undefined, undefined],
    ['Read', { file_path: '/work/app/release-cut/NOTSKILL.md' }, undefined, undefined],
    ['Edit', { file_path: '/work/app/release-cut/SKILL.md' }, undefined, undefined],
    ['Bash', { command: 'sed -i s/a/b/ release-cut/SKILL.md' }, 'sed', undefined],
  ])('%s %j → %j', (tool, args, program, skill) => {
    expect(parseSkillLoads(tool, args, program)[0]).toBe(skill);
  });

  it('one command that reads several loads each, once', () => {
    const command =
      "sed -n '1,220p' /h/.codex/skills/brainstorming/SKILL.md && sed -n '1,220p' /h/.codex/skills/test-driven-development/SKILL.md";
    expect(parseSkillLoads('shell', { command }, 'sed')).toEqual(['brainstorming', 'test-driven-development']);
    expect(parseSkillLoads('Bash', { command: 'cat a/pdf/SKILL.md b/pdf/SKILL.md' }, 'cat')).toEqual(['pdf']);
  });
});
