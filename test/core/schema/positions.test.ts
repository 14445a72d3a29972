import { describe, expect, it } from 'vitest';
import { checkSchema, type SchemaCheckInput } from '../../../src/core/schema/index.js';
import { frontmatterInput } from './yaml-locator.js';

// Line 1 of the file is the opening `---`; the YAML below starts on line 2.
const yaml = [
  'name: demo', //                      2
  'description: A demo skill.', //      3
  'metadata:', //                       4
  '  version: 1.0', //                  5
  'allowed-tools:', //                  6
  '  - Bash', //                        7
  'foo: bar', //                        8
  'required_credential_files:', //      9
  '  - description: token', //         10
  'effort: High', //                   11
  '',
].join('\n');

const at = (input: SchemaCheckInput) =>
  checkSchema(input).map((f) => ({ code: f.code, line: f.line, column: f.column, severity: f.severity }));

describe('checkSchema positions', () => {
  it('points at the key for unknown and missing keys, at the value for wrong values', () => {
    expect(at(frontmatterInput(yaml, { profile: 'spec' }))).toEqual([
      { code: 'schema/type', line: 5, column: 12, severity: 'error' },
      { code: 'schema/type', line: 7, column: 3, severity: 'error' },
      { code: 'schema/unknown-key', line: 8, column: 1, severity: 'error' },
      { code: 'schema/unknown-key', line: 9, column: 1, severity: 'error' },
      { code: 'schema/unknown-key', line: 11, column: 1, severity: 'error' },
    ]);
    expect(at(frontmatterInput(yaml, { profile: 'portable' }))).toEqual([
      { code: 'schema/unknown-key', line: 8, column: 1, severity: 'warning' },
      { code: 'schema/required', line: 10, column: 5, severity: 'error' },
      { code: 'schema/enum', line: 11, column: 9, severity: 'error' },
    ]);
  });

  it('places a missing top-level key where the locator puts the frontmatter', () => {
    const [missing] = checkSchema(frontmatterInput('\ndescription: d\n', { profile: 'portable' }));
    expect(missing).toMatchObject({ code: 'schema/required', line: 3, column: 1 });
  });

  it('falls back to the nearest ancestor, then to line 1, when the locator knows nothing', () => {
    const input = frontmatterInput('name: demo\ndescription: d\nmetadata: {hermes: {tags: [1]}}\n', { profile: 'hermes' });
    const onlyParent: SchemaCheckInput = {
      ...input,
      locateValue: (path) => (path.length <= 1 ? input.locateValue(path) : undefined),
      locateKey: () => undefined,
    };
    expect(at(onlyParent)).toEqual([{ code: 'schema/type', line: 4, column: 11, severity: 'error' }]);
    const blind: SchemaCheckInput = { ...input, locateKey: () => undefined, locateValue: () => undefined };
    expect(at(blind)).toEqual([{ code: 'schema/type', line: 1, column: 0, severity: 'error' }]);
  });

  it('survives a locator that throws', () => {
    const input = frontmatterInput('name: demo\ndescription: d\nfoo: 1\n', { profile: 'portable' });
    const broken: SchemaCheckInput = {
      ...input,
      locateKey: () => {
        throw new Error('boom');
      },
    };
    expect(at(broken)).toEqual([{ code: 'schema/unknown-key', line: 4, column: 6, severity: 'warning' }]);
  });

  it('reports a frontmatter that is not a mapping once, at line 1', () => {
    for (const text of ['- a\n- b\n', 'just a sentence\n', '', '42\n']) {
      const findings = checkSchema(frontmatterInput(text, { profile: 'portable' }));
      expect(findings.map((f) => [f.code, f.line, f.column])).toEqual([['schema/not-a-map', 1, 0]]);
    }
  });
});

describe('checkSchema messages and hints', () => {
  const one = (yaml: string, profile: SchemaCheckInput['profile'] = 'portable') => {
    const findings = checkSchema(frontmatterInput(`name: demo\ndescription: d\n${yaml}\n`, { profile }));
    expect(findings).toHaveLength(1);
    return findings[0]!;
  };

  it('echoes the offending input and says what to do', () => {
    expect(one('metadata: {version: 2}', 'spec').hint).toContain('`version: "2"`');
    expect(one('allowed-tools: [Bash, Read]', 'spec').hint).toContain('`allowed-tools: Bash Read`');
    expect(one('argument-hint: [apk-file]').hint).toContain('`argument-hint: "[apk-file]"`');
    expect(one('allowed_tools: Bash').hint).toContain('`allowed-tools`');
    expect(one('platforms: [macos]', 'claude-code').hint).toContain('--profile hermes');
    expect(one('effort: High').hint).toContain('`high`');
    expect(one('platforms: macos').hint).toContain('`platforms: [macos]`');
    const name = checkSchema(frontmatterInput('name: Here.Now\ndescription: d\n', { profile: 'spec' }))[0]!;
    expect(name.message).toContain('Here.Now');
    expect(name.hint).toContain('`here-now`');
  });

  it('truncates long input it echoes, in messages and hints', () => {
    const long = 'x'.repeat(10_000);
    for (const [yaml, profile] of [
      [`license: [${long}]`, 'portable'],
      [`argument-hint: [${long}]`, 'portable'],
      [`allowed-tools: [${long}, ${long}]`, 'spec'],
      [`${long}: 1`, 'portable'],
      [`metadata: {${long}: 1}`, 'spec'],
    ] as const) {
      const finding = one(yaml, profile);
      expect(finding.message.length, yaml.slice(0, 20)).toBeLessThan(300);
      expect(finding.hint.length, yaml.slice(0, 20)).toBeLessThan(400);
      expect(finding.message + finding.hint).toContain('…');
    }
  });

  it('collapses an anyOf failure into one finding per real problem', () => {
    const wrongType = one('paths: {a: 1}');
    expect(wrongType.code).toBe('schema/type');
    expect(wrongType.message).toContain('a string or a list of strings');
    const badItems = checkSchema(frontmatterInput('name: demo\ndescription: d\ntags: [1, ok, 3]\n', { profile: 'hermes' }));
    expect(badItems.map((f) => [f.code, f.line, f.column])).toEqual([
      ['schema/type', 4, 8],
      ['schema/type', 4, 15],
    ]);
  });
});
