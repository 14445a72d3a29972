import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTrailers } from '../../../src/core/ledger/trailers.js';
import { gitParse, renderLikeGit } from './git-trailers.js';

const messages: Record<string, string> = {
  'all trailers': 'skill(patch): a — fix\n\nSkill-Action: patch\nSkill-Name: a\nSkill-Actor: agent\n',
  'body then trailers': 'Subject\n\nSome body.\nMore body.\n\nSkill-Name: a\nSkill-Actor: user\n',
  'continuation lines': 'Subject\n\nBody\n\nKey: a\n  continued\n\tand more\nOther: b\n',
  'continuation at block start': 'Subject\n\n  indented: x\nKey: v\n',
  'Signed-off-by mixed, 25% rule met': 'S\n\nSigned-off-by: A <a@example.com>\nnot a trailer\nSkill-Name: x\n',
  'Signed-off-by mixed, under 25%': 'S\n\nnot one\nnot two\nnot three\nnot four\nSigned-off-by: A <a@example.com>\n',
  'cherry-pick line': 'S\n\nSkill-Name: x\n(cherry picked from commit 0123456789abcdef0123456789abcdef01234567)\n',
  'last paragraph not all trailers': 'S\n\nKey: v\nplain text here\n',
  'trailers in an earlier paragraph': 'S\n\nKey: v\n\nJust a closing note.\n',
  comments: 'S\n\nKey: v\n# a comment\nOther: w\n# trailing comment\n',
  'comment-only block': 'S\n\n# one\n# two\n',
  'divider after trailers': 'S\n\nKey: v\n---\n file | 1 +\n',
  'divider before trailers': 'S\n\nbody\n---\n\nKey: v\n',
  'divider with text': 'S\n\nKey: v\n--- a/file\n',
  'dashes that are not a divider': 'S\n\nbody\n----\n\nKey: v\n',
  CRLF: 'S\r\n\r\nBody\r\n\r\nKey: v\r\nOther: w\r\n',
  'CRLF continuation': 'S\r\n\r\nKey: a\r\n  b\r\n',
  'trailing blank lines': 'S\n\nKey: v\n\n\n',
  'trailing whitespace-only lines': 'S\n\nKey: v\n  \n\t\n',
  'keys in different case': 'S\n\nskill-name: a\nSKILL-ACTOR: agent\nSkill-Action: patch\n',
  'title only': 'Key: v\n',
  'two-line title': 'Subject\nKey: v\n',
  'title then blank then trailer, no newline at end': 'S\n\nKey: v',
  'spaces before the separator': 'S\n\nKey  :   v  \n',
  'space inside the key': 'S\n\nKey x: v\n',
  'empty value': 'S\n\nKey:\nOther: x\n',
  'colon in value': 'S\n\nLink: https://example.com/a:b\n',
  'conflicts block': 'S\n\nKey: v\n\nConflicts:\n\tfile.txt\n',
  scissors: 'S\n\nKey: v\n# ------------------------ >8 ------------------------\nOther: w\n',
  'squash merge': 'Title (#12)\n\n* commit one\n\n* commit two\n\nSkill-Action: patch\nSkill-Name: x\nSkill-Actor: agent\n',
  'leading comment before title': '# note\nSubject\n\nKey: v\n',
  empty: '',
  'blank lines only': '\n\n\n',
  'unicode value': 'S\n\nSkill-Name: café-naïve\nNote: — ✓\n',
};

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
    fc.constantFrom('', ' ', '\t', '---', '--- x', '# c', 'Conflicts:', '\tpath', 'Signed-off-by: A <a@b>',
      '(cherry picked from commit abc)', 'plain words', 'Key: v', 'key :v', 'K-1: a b', '  folded', ':x', 'Key x: y',
      '# ------------------------ >8 ------------------------'),
    fc.tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,6}$/), fc.string({ maxLength: 8 })).map(([k, v]) => `${k}:${v}`),
    fc.string({ maxLength: 10 }),
  );
  const message = fc.tuple(fc.array(line, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
    .map(([lines, eol, finalEol]) => lines.map((l) => l.replace(/[\r\n]/g, '')).join(eol) + (finalEol ? eol : ''));

  const hangsGit = (m: string, divider: boolean): boolean =>
    divider && /^---(\s|$)[\s\S]*\n# -{24} >8 -{24}\r?\n/m.test(m);

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
