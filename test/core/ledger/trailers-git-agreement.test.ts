import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTrailers } from '../../../src/core/ledger/trailers.js';
import { gitParse, renderLikeGit } from './git-trailers.js';
import { messages } from './trailer-messages.js';

describe('parseTrailers agrees with git interpret-trailers --parse', () => {
  it.each(Object.entries(messages))('%s', (_name, message) => {
    expect(renderLikeGit(parseTrailers(message))).toBe(gitParse(message));
  });

  it.each(Object.entries(messages))('%s (no divider, as git log reads commits)', (_name, message) => {
    expect(renderLikeGit(parseTrailers(message, { divider: false }))).toBe(gitParse(message, { divider: false }));
  });

  it('finds something in most of the table, so the agreement is not vacuous', () => {
    const withTrailers = Object.values(messages).filter((m) => parseTrailers(m).length > 0);
    expect(withTrailers.length).toBeGreaterThan(15);
  });

  // Random messages from lines chosen to hit git's edge cases: folds, comments, dividers, git-generated prefixes.
  const line = fc.oneof(
    fc.constantFrom(
      '',
      ' ',
      '\t',
      '---',
      '--- x',
      '# c',
      'Conflicts:',
      '\tpath',
      'Signed-off-by: A <a@b>',
      '(cherry picked from commit abc)',
      'plain words',
      'Key: v',
      'key :v',
      'K-1: a b',
      '  folded',
      ':x',
      'Key x: y',
      '# ------------------------ >8 ------------------------',
    ),
    fc.tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,6}$/), fc.string({ maxLength: 8 })).map(([k, v]) => `${k}:${v}`),
    fc.string({ maxLength: 10 }),
  );
  const message = fc
    .tuple(fc.array(line, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
    .map(([lines, eol, finalEol]) => lines.map((l) => l.replace(/[\r\n]/g, '')).join(eol) + (finalEol ? eol : ''));

  const hangsGit = (m: string, divider: boolean): boolean => divider && /^---(\s|$)[\s\S]*\n# -{24} >8 -{24}\r?\n/m.test(m);

  it('on random messages', () => {
    fc.assert(
      fc.property(message, fc.boolean(), (m, divider) => {
        fc.pre(!hangsGit(m, divider));
        expect(renderLikeGit(parseTrailers(m, { divider }))).toBe(gitParse(m, { divider }));
      }),
      { numRuns: 150 },
    );
  });
});
