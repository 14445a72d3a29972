import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseSkill, serializeSkill, setField } from '../../../src/core/skill/index.js';
import { corpusSkillsRoot, listCorpusSkills, missingFullCorpus } from '../../helpers/corpus.js';

const base = [
  '---',
  'name: deploy # keep this comment',
  "description: 'Single-quoted, kept as it is'",
  'allowed-tools:',
  '  - Read',
  '  - Bash',
  'notes: |',
  '  line one',
  '  line two',
  'metadata:',
  '  author: me',
  '---',
  '# Body',
  '',
].join('\n');

const parse = (text: string) => parseSkill(text, { file: 'SKILL.md' });

describe('setField', () => {
  it('changes only the edited value, keeping comments, order and quoting', () => {
    const out = setField(parse(base), ['description'], 'New text');
    expect(out).toBe(base.replace("'Single-quoted, kept as it is'", "'New text'"));
  });

  it.each([
    ['a top-level key', ['pinned'], true],
    ['a nested key', ['metadata', 'version'], '1.0.0'],
    ['a block list', ['allowed-tools'], ['Read']],
    ['a block scalar', ['notes'], 'short'],
    ['a key under a missing map', ['extra', 'a'], 'b'],
  ])('sets %s and the rest reads back unchanged', (_label, path, value) => {
    const before = parse(base);
    const after = parse(setField(before, path, value));
    expect(after.findings).toEqual([]);
    let expected: Record<string, unknown> = structuredClone(before.fields as Record<string, unknown>);
    if (path.length === 1) expected[path[0] as string] = value;
    else expected = { ...expected, [path[0] as string]: { ...(expected[path[0] as string] ?? {}), [path[1] as string]: value } };
    expect(after.fields).toEqual(expected);
    expect(after.body).toBe(before.body);
  });

  it('removes a field and nothing else', () => {
    const out = parse(setField(parse(base), ['allowed-tools'], undefined));
    expect(out.fields['allowed-tools']).toBeUndefined();
    expect(Object.keys(out.fields)).toEqual(['name', 'description', 'notes', 'metadata']);
    expect(out.text).toContain('name: deploy # keep this comment');
  });

  it('keeps CRLF line endings when it adds a line', () => {
    const crlf = base.replace(/\n/g, '\r\n');
    const out = setField(parse(crlf), ['pinned'], false);
    expect(out).toContain('pinned: false\r\n');
    expect(out.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('round-trips any string value through set then parse', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        expect(parse(setField(parse(base), ['description'], value)).fields.description).toBe(value);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses to edit frontmatter that is not a map', () => {
    expect(() => setField(parse('---\n- a\n---\n'), ['name'], 'x')).toThrow(expect.objectContaining({ code: 'skill/not-editable' }));
  });
});

describe('the real corpus (the fixture set when it is absent)', () => {
  const skills = listCorpusSkills();

  it.skipIf(missingFullCorpus())('has the 716 skills it is documented to have', () => {
    expect(listCorpusSkills(corpusSkillsRoot)).toHaveLength(716);
  });

  it('parses every skill and serializes it back byte for byte', () => {
    for (const skill of skills) {
      const text = readFileSync(skill.file, 'utf8');
      const parsed = parse(text);
      expect(serializeSkill(parsed), skill.relative).toBe(text);
      expect(
        parsed.findings.filter((f) => f.code === 'skill/yaml-syntax'),
        skill.relative,
      ).toEqual([]);
    }
  });

  it('edits one field of every skill and leaves every other line as it was', () => {
    for (const skill of skills) {
      const parsed = parse(readFileSync(skill.file, 'utf8'));
      if (!parsed.document) continue;
      const edited = setField(parsed, ['pinned'], true);
      expect(edited.startsWith(parsed.sections.head + parsed.sections.yaml), skill.relative).toBe(true);
      const again = parse(edited);
      expect(again.fields.pinned, skill.relative).toBe(true);
      expect({ ...again.fields, pinned: undefined }, skill.relative).toEqual({ ...parsed.fields, pinned: undefined });
    }
  });
});
