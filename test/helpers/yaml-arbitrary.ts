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

/** Every line's leading two-space steps widened to `width` spaces: the same nesting, indented another way. */
export function reindentYaml(text: string, width: number): string {
  return text.replace(/^((?: {2})+)/gm, (lead: string) => ' '.repeat((lead.length / 2) * width));
}

/**
 * A key whose value goes on over the lines below it: a `>`/`|` block (headers
 * the quick reader reads and some it must refuse), a plain string continued,
 * or a string that starts on the next line; the lines mostly at one
 * indentation, sometimes deeper, shallower or blank.
 */
export function multiLineEntry(key: fc.Arbitrary<string>, text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const indent = fc.constantFrom('  ', '  ', '   ', '    ', ' ');
  const body = fc.tuple(indent, fc.array(fc.tuple(text, fc.constantFrom('', '', '', ' ', '\n', '  ')), { minLength: 1, maxLength: 3 }));
  const render = ([lead, lines]: [string, [string, string][]]) =>
    lines.map(([t, odd]) => `${odd === '\n' ? '\n' : odd}${lead}${t}`).join('\n');
  const head = fc.constantFrom('>', '>-', '|', '|-', '>+', '|2', '> ', '');
  return fc
    .tuple(
      key,
      fc.oneof(
        head,
        text.map((t) => ` ${t}`),
      ),
      body,
    )
    .map(([k, h, b]) => `${k}:${h === '' || h.startsWith(' ') ? h : ` ${h}`}\n${render(b)}`);
}

/** A key over a list of maps, each opening on its `- ` line (`- name: x` then `  prompt: y`), sometimes misaligned. */
export function listOfMaps(key: fc.Arbitrary<string>, value: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const entry = fc.tuple(key, value).map(([k, v]) => `${k}: ${v}`);
  const item = fc
    .tuple(fc.array(entry, { minLength: 1, maxLength: 3 }), fc.constantFrom('    ', '    ', '   ', '     '))
    .map(([entries, lead]) => [`  - ${entries[0]}`, ...entries.slice(1).map((e) => `${lead}${e}`)].join('\n'));
  return fc.tuple(key, fc.array(item, { minLength: 1, maxLength: 2 })).map(([k, items]) => `${k}:\n${items.join('\n')}`);
}
