import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyOf, listTaskWords, pickExample } from '../../../src/core/patterns/task-words.js';

/** The plain choice pickExample's one pass replaced: every text scored, all of them sorted, the first kept. */
function sortedFirst(texts: readonly string[], recurring: ReadonlySet<string>): string | undefined {
  const score = (text: string) =>
    new Set(
      listTaskWords(text)
        .map(keyOf)
        .filter((k) => recurring.has(k)),
    ).size;
  return [...texts].sort((a, b) => score(b) - score(a) || a.length - b.length || (a < b ? -1 : 1))[0];
}

const words = ['fix', 'tests', 'test', 'release', 'deploy', 'the', 'api', 'Publish', 'npm'];
const textArbitrary = fc.array(fc.constantFrom(...words), { maxLength: 6 }).map((w) => w.join(' '));

describe('pickExample', () => {
  it('picks what sorting every text picked, repeated texts and ties included', () => {
    fc.assert(
      fc.property(fc.array(textArbitrary, { maxLength: 40 }), fc.subarray(['fix', 'test', 'release', 'deploy', 'api']), (texts, keys) => {
        const recurring = new Set(keys);
        expect(pickExample(texts, recurring)).toBe(sortedFirst(texts, recurring));
      }),
      { numRuns: 500 },
    );
  });
});

describe('listTaskWords: the words a person used', () => {
  it("takes no word from redaction's placeholders or from a path's folders; a file keeps its name", () => {
    expect(listTaskWords('Publish it. My token is $GITHUB_TOKEN, mail <email>, files in ~/…; key <private key>')).toEqual([
      'publish',
      'token',
      'mail',
      'key',
    ]);
    expect(listTaskWords('Fix src/parser.ts in ~/…/lexer.ts, see https://example.com/acme/docs and C:\\acme\\notes.md')).toEqual([
      'fix',
      'parser',
      'lexer',
      'notes',
    ]);
  });
});
