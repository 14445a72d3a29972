import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseQuickFrontmatter, parseQuickSkill } from '../../../src/core/registry/quick-frontmatter.js';
import { parseSkill } from '../../../src/core/skill/index.js';
import { indentYaml, listOfMaps, multiLineEntry, reindentYaml, yamlBlock } from '../../helpers/yaml-arbitrary.js';

const full = (yaml: string) => parseSkill(`---\n${yaml}---\nBody\n`, { file: 'SKILL.md', fullParse: true });

describe('parseQuickFrontmatter', () => {
  it.each([
    [
      'name: a\ndescription: Does things. Use when [x] {y} http://z.\n',
      { name: 'a', description: 'Does things. Use when [x] {y} http://z.' },
    ],
    ["a: \"quoted: value # not a comment\"\nb: 'it''s'\n", { a: 'quoted: value # not a comment', b: "it's" }],
    ['user-invocable: false\npinned: true\n', { 'user-invocable': false, pinned: true }],
    ['version: 1.0.0\nlicense: 3-clause BSD\n', { version: '1.0.0', license: '3-clause BSD' }],
    [
      'tags: [a, "b c", true]\nempty: []\nmetadata:\n  hermes:\n    tags: [x]\n    deep:\n      - z\n',
      { tags: ['a', 'b c', true], empty: [], metadata: { hermes: { tags: ['x'], deep: ['z'] } } },
    ],
    [
      'metadata:\n  author: me\n  version: "1.0"\npaths:\n  - "src/**"\n  - docs\n',
      { metadata: { author: 'me', version: '1.0' }, paths: ['src/**', 'docs'] },
    ],
    ['a:\n    four: spaces\n    list:\n       - x\n', { a: { four: 'spaces', list: ['x'] } }],
    ['a: one\n  continued "here"\nb:\n  two\n   lines\n', { a: 'one continued "here"', b: 'two lines' }],
    ['a: |\n  block\n  lines\n\nb: >-\n    folded\n    lines\nc: >\n  x\n', { a: 'block\nlines\n', b: 'folded lines', c: 'x\n' }],
    ['env:\n  - name: A\n    prompt: a key\n  - name: B\n', { env: [{ name: 'A', prompt: 'a key' }, { name: 'B' }] }],
  ])('reads %j', (yaml, expected) => {
    expect(parseQuickFrontmatter(yaml)).toEqual(expected);
    expect(full(yaml).fields).toEqual(expected);
  });

  it.each([
    'version: 1.0\n',
    'a: 1e3\n',
    'a: 0x1F\n',
    'a: 0o17\n',
    'a: 12\n',
    'a: null\n',
    'a: yes\n',
    'a: x # comment\n',
    'a: "esc\\n"\n',
    'a: &anchor x\n',
    'a:\n- item\n',
    'a: 1\na: 2\n',
    '# comment\na: b\n',
    '__proto__: x\n',
    'a:\n',
    'a:   spaced\n',
    'a: [b, c] # comment\n',
    'a: [b,,c]\n',
    'a: ["x, y"]\n',
    'a: [b: c]\n',
    'a:\n  b: c\n   d: e\n',
    'a: |+\n  keep\n',
    'a: >2\n  indented\n',
    'a: >\n  x\n\n  y\n',
    'a: >\n  x\n    deeper\n',
    'a: |\n  trailing \n',
    'a: >\nb: c\n',
    'a: one\n\n  two\n',
    'a: one\n  - two\n',
    'a: one\n  # two\n',
    'a: "one"\n  two\n',
    'a:\n  "x"\n  y\n',
  ])('leaves %j to the YAML parser', (yaml) => {
    expect(parseQuickFrontmatter(yaml)).toBeUndefined();
  });

  it('leaves CRLF, BOM and missing frontmatter to the full parser', () => {
    expect(parseQuickSkill('---\r\na: b\r\n---\r\n')).toBeUndefined();
    expect(parseQuickSkill('\uFEFF---\na: b\n---\n')).toBeUndefined();
    expect(parseQuickSkill('# no frontmatter\n')).toBeUndefined();
    expect(parseQuickSkill('---\na: b\n---\nBody\n')).toEqual({ fields: { a: 'b' }, body: 'Body\n' });
  });

  it('agrees with the YAML parser wherever it answers (property)', () => {
    const piece = fc.constantFrom(
      'a',
      'B',
      ' ',
      ':',
      ': ',
      '#',
      ' #',
      '"',
      "'",
      "''",
      '-',
      '- ',
      '1',
      '.',
      'true',
      'false',
      'null',
      'yes',
      '~',
      '[',
      ']',
      '{',
      '}',
      '&',
      '*',
      '!',
      '|',
      '>',
      '%',
      '@',
      '`',
      '\\',
      '\t',
      'é',
      '?',
      ',',
      '0',
      '9',
      'e',
      'E',
      'x',
      'o',
      '1.0.0',
      '0x1F',
      '1e3',
      '+',
      '_',
    );
    const scalar = fc.array(piece, { minLength: 0, maxLength: 6 }).map((parts) => parts.join(''));
    const key = fc.constantFrom('name', 'description', 'paths', 'metadata', 'a-b', 'x_y', 'null', 'true', '1a');
    const flow = fc.array(scalar, { maxLength: 3 }).map((vs) => `[${vs.join(', ')}]`);
    const value = fc.oneof(scalar, scalar, flow);
    const block = yamlBlock(key, value);
    const words = fc.oneof(scalar, fc.constantFrom('plain words', 'Use when "x", y', "it's", 'a-b c', 'x: y', 'ends:'));
    const line = fc.oneof(
      fc.tuple(key, value).map(([k, v]) => `${k}: ${v}`),
      fc.tuple(key, block).map(([k, b]) => `${k}:\n${indentYaml(b)}`),
      multiLineEntry(key, words),
      listOfMaps(key, value),
      scalar,
    );
    let answered = 0;
    fc.assert(
      fc.property(fc.array(line, { maxLength: 5 }), fc.constantFrom(2, 3, 4), (lines, width) => {
        const yaml = reindentYaml(lines.map((l) => `${l}\n`).join(''), width);
        const quick = parseQuickFrontmatter(yaml);
        if (quick === undefined) return;
        answered++;
        const parsed = full(yaml);
        expect(parsed.findings.filter((f) => f.severity !== 'info')).toEqual([]);
        expect(quick).toEqual(parsed.fields);
      }),
      { numRuns: 3_000 },
    );
    // The comparison must actually run on a good share of inputs, not only on the trivial empty one.
    expect(answered).toBeGreaterThan(300);
  });

  it('agrees with the YAML parser on values over several lines, at any indentation (property)', () => {
    const key = fc.constantFrom('name', 'description', 'metadata', 'a-b');
    const text = fc.constantFrom(
      'plain words',
      'Use when "x", y',
      "it's",
      'a-b c',
      'x: y',
      'ends:',
      '# c',
      '- item',
      'é',
      'true',
      '1.0',
      '',
    );
    const line = fc.oneof(
      fc.tuple(key, text).map(([k, v]) => `${k}: ${v}`),
      multiLineEntry(key, text),
      multiLineEntry(key, text),
    );
    let multiLine = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 3 }), fc.constantFrom(2, 3, 4), (lines, width) => {
        const yaml = reindentYaml(lines.map((l) => `${l}\n`).join(''), width);
        const quick = parseQuickFrontmatter(yaml);
        if (quick === undefined) return;
        if (/\n /.test(yaml)) multiLine++;
        const parsed = full(yaml);
        expect(parsed.findings.filter((f) => f.severity !== 'info')).toEqual([]);
        expect(quick).toEqual(parsed.fields);
      }),
      { numRuns: 3_000 },
    );
    expect(multiLine).toBeGreaterThan(100);
  });
});
