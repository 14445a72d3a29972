import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseQuickFrontmatter } from '../../../src/core/registry/quick-frontmatter.js';
import { buildQuickLocator } from '../../../src/core/skill/quick-locate.js';
import type { FieldPath } from '../../../src/core/skill/types.js';
import { parseSkill } from '../../../src/core/skill/index.js';
import { validateSkill } from '../../../src/core/validate.js';
import { discoverSkills } from '../../../src/store/discover.js';
import { readSkillFolder } from '../../../src/store/read-skill.js';
import { skillsRoot } from '../../helpers/corpus.js';
import { indentYaml, listOfMaps, multiLineEntry, reindentYaml, yamlBlock } from '../../helpers/yaml-arbitrary.js';

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

/** Every path into `data` (each key, value and item), and a missing one beside each. */
function pathsOf(data: unknown, prefix: FieldPath = []): FieldPath[] {
  const out: FieldPath[] = [prefix, [...prefix, 'missing-key'], [...prefix, 99]];
  if (Array.isArray(data)) data.forEach((item, i) => out.push(...pathsOf(item, [...prefix, i])));
  else if (typeof data === 'object' && data !== null)
    for (const [key, value] of Object.entries(data)) out.push(...pathsOf(value, [...prefix, key]));
  return out;
}

/** The quick locator's answer for every path, against the YAML parser's (a SKILL.md whose frontmatter the quick reader reads). */
function expectSamePositions(yaml: string, where: string): boolean {
  const data = parseQuickFrontmatter(yaml);
  if (data === undefined || Object.keys(data).length === 0) return false;
  const text = `---\n${yaml}---\nBody\n`;
  const plain = parseSkill(text, { file: 'SKILL.md', fullParse: true });
  const quick = buildQuickLocator(yaml, 2);
  expect(quick, where).toBeDefined();
  for (const path of pathsOf(data)) {
    expect(quick?.locateKey(path), `${where} key ${JSON.stringify(path)}`).toEqual(plain.locateKey(path));
    expect(quick?.locateValue(path), `${where} value ${JSON.stringify(path)}`).toEqual(plain.locateValue(path));
  }
  return true;
}

describe('quick positions against the YAML parser', () => {
  it('places every key, value and item of every corpus frontmatter the quick reader reads', () => {
    let compared = 0;
    const skills = discoverSkills(skillsRoot, { deep: { maxDepth: 8 } });
    for (const skill of skills) {
      const text = readFileSync(join(skill.dir, 'SKILL.md'), 'utf8');
      if (text.includes('\r') || text.startsWith('\uFEFF')) continue;
      const sections = parseSkill(text, { file: 'SKILL.md' }).sections;
      if (sections.frontmatter === 'ok' && expectSamePositions(sections.yaml, skill.dir)) compared++;
    }
    // Most of them (the full corpus, else the fixture set): the quick reader refuses only unusual frontmatter.
    expect(compared).toBeGreaterThan(skills.length / 2);
  });

  it('places them on generated frontmatter (property)', () => {
    const scalar = fc.constantFrom('a', 'plain words', '"quoted: x"', "'it''s'", 'true', 'x-1', '"', 'a: b', '1.0.0', '');
    const key = fc.constantFrom('name', 'description', 'metadata', 'a-b', 'x_y', 'tags');
    const flow = fc.array(fc.constantFrom('a', ' b', '"c d"', 'true', '', ' '), { maxLength: 3 }).map((items) => `[${items.join(',')}]`);
    const value = fc.oneof(scalar, scalar, flow);
    const block = yamlBlock(key, value);
    const line = fc.oneof(
      fc.tuple(key, value).map(([k, v]) => `${k}: ${v}`),
      fc.tuple(key, block).map(([k, b]) => `${k}:\n${indentYaml(b)}`),
      multiLineEntry(key, fc.constantFrom('plain words', 'Use when "x", y', 'a', '[b]')),
      listOfMaps(key, fc.constantFrom('plain words', 'a', '[b, c]', '"q"')),
      fc.constant(''),
      fc.constant('   '),
    );
    let compared = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 5 }), fc.constantFrom(2, 3, 4), (lines, width) => {
        if (expectSamePositions(reindentYaml(lines.map((l) => `${l}\n`).join(''), width), 'generated')) compared++;
      }),
      { numRuns: 2_000 },
    );
    expect(compared).toBeGreaterThan(200);
  });
});
