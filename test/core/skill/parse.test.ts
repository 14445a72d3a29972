import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseSkill, parseSkillBytes, serializeSkill } from '../../../src/core/skill/index.js';

const codes = (text: string) => parseSkill(text, { file: 'SKILL.md' }).findings.map((f) => f.code);

describe('parseSkill', () => {
  it('reads frontmatter fields and the body with its first line number', () => {
    const skill = parseSkill('---\nname: a\ndescription: b\n---\n# Title\n', { file: 'SKILL.md' });
    expect(skill.fields).toEqual({ name: 'a', description: 'b' });
    expect(skill.body).toBe('# Title\n');
    expect(skill.sections.bodyLine).toBe(5);
    expect(skill.findings).toEqual([]);
  });

  it.each([
    ['no frontmatter', '# Just markdown\n', ['skill/frontmatter-missing']],
    ['empty file', '', ['skill/frontmatter-missing']],
    ['unterminated', '---\nname: a\ndescription: b\n', ['skill/frontmatter-unterminated']],
    ['BOM', '\uFEFF---\nname: a\n---\n', ['skill/bom']],
    ['CRLF', '---\r\nname: a\r\n---\r\nbody\r\n', ['skill/crlf']],
    ['duplicate key', '---\nname: a\nname: b\n---\n', ['skill/duplicate-key']],
    ['syntax error', '---\nname: a\ndescription: [unclosed\n---\n', ['skill/yaml-syntax']],
  ])('reports %s', (_label, text, expected) => {
    expect(codes(text)).toEqual(expect.arrayContaining(expected));
  });

  it('positions a YAML syntax error on its line in the file', () => {
    const skill = parseSkill('---\nname: a\ndescription: "unclosed\n---\n', { file: 'SKILL.md' });
    const error = skill.findings.find((f) => f.code === 'skill/yaml-syntax');
    expect(error?.line).toBeGreaterThanOrEqual(3);
  });

  it('still loads top-level fields when the YAML is broken, as clients do', () => {
    const skill = parseSkill('---\nname: pdf-tools\ndescription: Use when: the user has a PDF\n---\n', { file: 'SKILL.md' });
    expect(skill.findings.map((f) => f.code)).toContain('skill/yaml-syntax');
    expect(skill.fields.name).toBe('pdf-tools');
    expect(skill.fields.description).toBe('Use when: the user has a PDF');
  });

  it('refuses to expand a YAML alias bomb', () => {
    const bomb = [
      'a: &a [x,x,x,x,x,x,x,x,x]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
    ].join('\n');
    const skill = parseSkill(`---\n${bomb}\n---\n`, { file: 'SKILL.md' });
    expect(skill.findings.map((f) => f.code)).toContain('skill/yaml-alias-limit');
    expect(skill.data).toBeNull();
  });

  it('does not pollute prototypes with __proto__ or constructor keys', () => {
    const skill = parseSkill('---\n__proto__: {polluted: 1}\nconstructor: 2\nname: a\n---\n', { file: 'SKILL.md' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(skill.fields)).toBe(Object.prototype);
    expect(skill.fields.name).toBe('a');
  });

  it.each([
    ['a list', '---\n- a\n- b\n---\n', ['a', 'b']],
    ['a scalar', '---\njust text\n---\n', 'just text'],
    ['nothing', '---\n---\n', null],
  ])('keeps frontmatter that is %s as data, with no fields', (_label, text, data) => {
    const skill = parseSkill(text, { file: 'SKILL.md' });
    expect(skill.data).toEqual(data);
    expect(skill.fields).toEqual({});
  });

  it('reports bytes that are not UTF-8 at their line and still loads', () => {
    const bytes = new Uint8Array([...Buffer.from('---\nname: a\ndescription: caf'), 0xe9, ...Buffer.from('\n---\n')]);
    const skill = parseSkillBytes(bytes, { file: 'SKILL.md' });
    const bad = skill.findings.find((f) => f.code === 'skill/not-utf8');
    expect(bad).toMatchObject({ line: 3, column: 17, severity: 'error' });
    expect(skill.fields.name).toBe('a');
  });

  it('handles a 10 MB description without trouble', () => {
    const text = `---\nname: a\ndescription: ${'x'.repeat(10_000_000)}\n---\n`;
    const skill = parseSkill(text, { file: 'SKILL.md' });
    expect((skill.fields.description as string).length).toBe(10_000_000);
    expect(skill.findings.map((f) => f.code)).toContain('skill/frontmatter-too-large');
  });

  it.each([
    ['100,000 keys in 1 MB', Array.from({ length: 100_000 }, (_, i) => `k${i}: v`).join('\n')],
    ['50,000 small keys', Array.from({ length: 50_000 }, (_, i) => `${i}: 1`).join('\n')],
    ['nesting 40 flow levels deep', `x: ${'['.repeat(40)}${']'.repeat(40)}`],
    ['nesting 40 block levels deep', Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n')],
  ])('refuses to parse frontmatter of %s, with a finding, still reading name and description', (_label, yaml) => {
    const skill = parseSkill(`---\nname: a\ndescription: d\n${yaml}\n---\nbody\n`, { file: 'SKILL.md' });
    expect(skill.findings.map((f) => f.code)).toContain('skill/frontmatter-too-large');
    expect(skill.fields).toMatchObject({ name: 'a', description: 'd' });
  });

  it('finds duplicate keys at every level, once per repeat', () => {
    const skill = parseSkill('---\nname: a\nname: b\nmetadata:\n  x: 1\n  x: 2\n  y: 3\n---\n', { file: 'SKILL.md' });
    expect(skill.findings.filter((f) => f.code === 'skill/duplicate-key').map((f) => f.line)).toEqual([3, 6]);
  });

  it('locates keys and values in file coordinates', () => {
    const skill = parseSkill('---\nname: a\nmetadata:\n  author: me\ntools: [Read, Bash]\n---\n', { file: 'SKILL.md' });
    expect(skill.locateKey(['metadata', 'author'])).toEqual({ line: 4, column: 3 });
    expect(skill.locateValue(['metadata', 'author'])).toEqual({ line: 4, column: 11 });
    expect(skill.locateValue(['tools', 1])).toEqual({ line: 5, column: 15 });
    expect(skill.locateKey(['missing'])).toBeUndefined();
  });
});

describe('parse and serialize', () => {
  it('is total and round-trips any text exactly', () => {
    const fragments = fc.constantFrom(
      '---',
      '\n',
      '\r\n',
      'name: a',
      ': ',
      '- x',
      '"',
      "'",
      '\uFEFF',
      '&a',
      '*a',
      '{',
      '[',
      '#',
      ' ',
      'é',
      '\u0000',
    );
    const texts = fc.oneof(
      fc.string(),
      fc.array(fragments, { maxLength: 30 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(texts, (text) => {
        const skill = parseSkill(text, { file: 'SKILL.md' });
        expect(serializeSkill(skill)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('is total on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const skill = parseSkillBytes(bytes, { file: 'SKILL.md' });
        expect(Array.isArray(skill.findings)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
