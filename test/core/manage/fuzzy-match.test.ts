import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { closestLines, findMatches, replaceSpans } from '../../../src/core/manage/fuzzy-match.js';
import { supportPathProblem } from '../../../src/core/manage/support-path.js';

const file = [
  '# Deploy',
  '',
  '    if ready:',
  '        ship()',
  'Use the “blue” deploy — not the green one.',
  'Path:\tsrc/app',
  'Step one',
  'middle a',
  'middle b',
  'Step end',
  '',
].join('\n');

describe('findMatches', () => {
  it.each([
    ['exact', 'ship()', 'exact'],
    ['line-trimmed', 'if ready:\n    ship()', 'line-trimmed'],
    ['whitespace-normalized', 'Path: src/app', 'whitespace-normalized'],
    ['indentation-flexible', '  if ready:\n      ship()   ', 'line-trimmed'],
    ['escape-normalized', 'if ready:\\n        ship()', 'escape-normalized'],
    // Surrounding blank lines: the whitespace-normalized matcher (earlier in the chain) already finds it.
    ['trimmed-boundary', '\n\nStep one\n', 'whitespace-normalized'],
    ['unicode-normalized', 'Use the "blue" deploy - not', 'unicode-normalized'],
    ['block-anchored', 'Step one\nsomething else\nmiddle z\nStep end', 'block-anchored'],
  ])('%s finds it', (_label, old, matcher) => {
    const result = findMatches(file, old);
    expect(result?.matcher).toBe(matcher);
    expect(result?.spans).toHaveLength(1);
  });

  it('stops at the first matcher that finds anything and reports every span with its line', () => {
    const result = findMatches('a x\nb\na x\n', 'a x');
    expect(result).toEqual({
      matcher: 'exact',
      spans: [
        { start: 0, end: 3, line: 1 },
        { start: 6, end: 9, line: 3 },
      ],
    });
  });

  it('finds nothing for text that is not there', () => {
    expect(findMatches(file, 'Roll back everything')).toBeUndefined();
  });

  it('keeps CRLF line endings when a line-based matcher replaces lines', () => {
    const crlf = 'one\r\n  two\r\nthree\r\n';
    const match = findMatches(crlf, 'two\nthree');
    expect(match?.matcher).toBe('line-trimmed');
    expect(replaceSpans(crlf, match?.spans ?? [], 'TWO\r\nTHREE')).toBe('one\r\nTWO\r\nTHREE\r\n');
  });

  it('an exact match replaced gives exactly the text with new in place of old', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), fc.string(), fc.string(), (before, old, after, replacement) => {
        const text = before + old + after;
        const match = findMatches(text, old);
        expect(match).toBeDefined();
        if (match?.matcher === 'exact' && match.spans.length === 1 && match.spans[0]?.start === before.length) {
          expect(replaceSpans(text, match.spans, replacement)).toBe(before + replacement + after);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('closestLines', () => {
  it('ranks lines by shared words', () => {
    expect(closestLines(file, 'the blue deploy')[0]).toEqual({ line: 5, text: 'Use the “blue” deploy — not the green one.' });
  });
});

describe('supportPathProblem', () => {
  it.each([
    ['references/api.md', undefined],
    ['scripts/tools/run.sh', undefined],
    ['SKILL.md', 'support files live under'],
    ['notes/x.md', 'support files live under'],
    ['references', 'support files live under'],
    ['references/../x', '".."'],
    ['/abs/references/x', 'absolute'],
    ['references//x', '".."'],
    ['references\\x', '"/"'],
    ['assets/.git/config', 'git metadata'],
    ['', 'empty'],
  ])('%s', (path, problem) => {
    const result = supportPathProblem(path);
    if (problem === undefined) expect(result).toBeUndefined();
    else expect(result).toContain(problem);
  });
});
