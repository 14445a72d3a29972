import fc from 'fast-check';

/** Indents every line of a YAML block by two spaces, as a nested mapping or list under a key. */
export function indentYaml(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}

/**
 * Nested YAML blocks (mappings of `key: value`, lists of `- value`, a key over
 * a deeper block) built from the caller's keys and values: the shapes a quick
 * frontmatter reader must either read as the parser does or refuse.
 */
export function yamlBlock(key: fc.Arbitrary<string>, value: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const { block } = fc.letrec((tie) => ({
    block: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc
        .array(
          fc.tuple(key, value).map(([k, v]) => `${k}: ${v}`),
          { minLength: 1, maxLength: 3 },
        )
        .map((ls) => ls.join('\n')),
      fc
        .array(
          value.map((v) => `- ${v}`),
          { minLength: 1, maxLength: 3 },
        )
        .map((ls) => ls.join('\n')),
      fc.tuple(key, tie('block') as fc.Arbitrary<string>).map(([k, b]) => `${k}:\n${indentYaml(b)}`),
    ),
  }));
  return block;
}
