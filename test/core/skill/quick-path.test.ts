import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSkill } from '../../../src/core/skill/index.js';
import { validateSkill } from '../../../src/core/validate.js';
import { discoverSkills } from '../../../src/store/discover.js';
import { readSkillFolder } from '../../../src/store/read-skill.js';
import { skillsRoot } from '../../helpers/corpus.js';

// The quick frontmatter reader is a fast path: validate must say exactly what the YAML parser's path says.
describe('validate: quick frontmatter path against the full parse', () => {
  it('gives the same findings, positions included, for every skill of the corpus', () => {
    const skills = discoverSkills(skillsRoot, { deep: { maxDepth: 8 } });
    expect(skills.length).toBeGreaterThan(10);
    let compared = 0;
    for (const skill of skills) {
      const reportPath = relative(skillsRoot, join(skill.dir, 'SKILL.md'));
      const content = readSkillFolder(skill.dir, { reportPath, boundary: skillsRoot });
      if (!content.bytes) continue;
      const input = { file: reportPath, content: content.bytes, folder: skill.name, files: content.files };
      for (const profile of ['portable', 'spec'] as const) {
        const quick = validateSkill({ ...input, profile });
        const plain = validateSkill({ ...input, profile, fullParse: true });
        expect(quick.findings, reportPath).toEqual(plain.findings);
        expect(quick.skill.fields, reportPath).toEqual(plain.skill.fields);
      }
      compared++;
    }
    expect(compared).toBe(skills.length);
  });

  it('answers positions and the document on demand, as the parser places them', () => {
    const text = '---\nname: Bad_Name\ndescription: Does a thing. Use when asked.\nmetadata:\n  author: me\n---\nBody\n';
    const quick = parseSkill(text, { file: 'SKILL.md' });
    const plain = parseSkill(text, { file: 'SKILL.md', fullParse: true });
    expect(quick.fields).toEqual({ name: 'Bad_Name', description: 'Does a thing. Use when asked.', metadata: { author: 'me' } });
    for (const path of [['name'], ['metadata', 'author'], ['metadata'], []]) {
      expect(quick.locateKey(path)).toEqual(plain.locateKey(path));
      expect(quick.locateValue(path)).toEqual(plain.locateValue(path));
    }
    expect(quick.locateValue(['name'])).toEqual({ line: 2, column: 7 });
    expect(quick.document?.toJS()).toEqual(plain.document?.toJS());
    // A finding that needs a position still gets the parser's.
    const findings = validateSkill({ file: 'x/SKILL.md', content: text, folder: 'x' }).findings;
    expect(findings).toEqual(validateSkill({ file: 'x/SKILL.md', content: text, folder: 'x', fullParse: true }).findings);
    expect(findings.some((f) => f.line === 2)).toBe(true);
  });

  it('leaves files the quick reader refuses to the parser', () => {
    for (const yaml of ['version: 1.0\n', 'a: |\n  block\n', 'a: x # c\n', 'a: 1\na: 2\n']) {
      const text = `---\n${yaml}---\n`;
      expect(parseSkill(text, { file: 'SKILL.md' })).toMatchObject({
        fields: parseSkill(text, { file: 'SKILL.md', fullParse: true }).fields,
        findings: parseSkill(text, { file: 'SKILL.md', fullParse: true }).findings,
      });
    }
  });
});
