import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSchema, profileNames, type Position } from '../../../src/core/schema/index.js';

const profile = fc.constantFrom(...profileNames);
const position = fc.option(fc.record({ line: fc.integer({ min: -3, max: 500 }), column: fc.integer({ min: -3, max: 200 }) }), {
  nil: undefined,
});
const frontmatterLike = fc.dictionary(
  fc.oneof(
    fc.constantFrom(
      'name',
      'description',
      'metadata',
      'allowed-tools',
      'hooks',
      'paths',
      'version',
      'platforms',
      '__proto__',
      'constructor',
    ),
    fc.string(),
  ),
  fc.anything({ withNullPrototype: true, withMap: true, withDate: true, withBigInt: true, withObjectString: true, withTypedArray: true }),
);

describe('checkSchema is total', () => {
  it('never throws, and every finding is well-formed, for any data, profile and locator answers', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), frontmatterLike), profile, position, (data, profileName, answer: Position | undefined) => {
        const findings = checkSchema({
          file: 'x/SKILL.md',
          data,
          profile: profileName,
          locateKey: () => answer,
          locateValue: () => answer,
        });
        for (const finding of findings) {
          expect(finding.code).toMatch(/^schema\/[a-z-]+$/);
          expect(finding.code, finding.message).not.toBe('schema/internal');
          expect(finding.line).toBeGreaterThanOrEqual(1);
          expect(finding.message.length).toBeGreaterThan(0);
          expect(finding.hint.length).toBeGreaterThan(0);
          expect(finding.severity === 'error' || finding.code === 'schema/unknown-key').toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('reports a self-referencing value instead of looping', () => {
    const tags: unknown[] = [];
    tags.push(tags);
    const findings = checkSchema({
      file: 'f',
      data: { name: 'a', description: 'd', tags },
      profile: 'hermes',
      locateKey: () => undefined,
      locateValue: () => undefined,
    });
    expect(findings.map((f) => f.code)).toEqual(['schema/too-complex']);
  });

  it('accepts a value shared by two keys (a YAML alias), which is not a cycle', () => {
    const shared = ['a', 'b'];
    const data = { name: 'a', description: 'd', tags: shared, triggers: shared };
    expect(checkSchema({ file: 'f', data, profile: 'hermes', locateKey: () => undefined, locateValue: () => undefined })).toEqual([]);
  });

  it('does not let a valid frontmatter through on one profile and not another without a reason', () => {
    const minimal = { name: 'demo', description: 'A demo.' };
    for (const name of profileNames) {
      expect(checkSchema({ file: 'f', data: minimal, profile: name, locateKey: () => undefined, locateValue: () => undefined })).toEqual(
        [],
      );
    }
  });
});
