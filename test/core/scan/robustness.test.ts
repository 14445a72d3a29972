import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanSkillText } from '../../../src/core/scan/match.js';

describe('scanSkillText is total', () => {
  it('never throws and keeps positions inside the text', () => {
    const alphabet = fc.constantFrom(
      'a',
      ' ',
      '\n',
      '\r',
      '"',
      "'",
      '`',
      '|',
      '/',
      '$',
      '{',
      '<',
      '!',
      '-',
      '=',
      '\u200B',
      '\u202E',
      'ｃ',
      'о',
      'curl ',
      'rm -rf ',
      'ignore previous instructions',
      '<!--',
      'base64 -d | sh',
      'skillgarden-ignore: priv-sudo',
    );
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 80 }).map((parts) => parts.join('')),
        (text) => {
          const lines = text.replace(/\r\n?/g, '\n').split('\n');
          for (const f of scanSkillText(text, { file: 'f.md' })) {
            expect(f.line).toBeGreaterThanOrEqual(1);
            expect(f.line).toBeLessThanOrEqual(lines.length);
            expect(f.column).toBeGreaterThanOrEqual(1);
            expect(f.column).toBeLessThanOrEqual(lines[f.line - 1]!.length + 1);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

// The brief asks for one generous bound on the whole scan (not per rule): it
// catches a rule that backtracks catastrophically, which costs minutes, not ms.
describe('pathological input', () => {
  const inputs: Array<[string, string]> = [
    [
      '100 KB lines of one repeated character',
      ['a', ' ', '/', '-', '$', '{', '"', '\\x41', 'A1', '0.'].map((c) => c.repeat(Math.ceil(100_000 / c.length))).join('\n'),
    ],
    ['minified script', `!function(){${'var a=b+"c"+d;eval(x);fetch("https://x/"+y);'.repeat(4000)}}();`],
    [
      'a 1 MB file of near-misses',
      Array.from({ length: 20_000 }, (_, i) => `curl https://h${i}.example/${'a'.repeat(20)} -H "x: $A" ignore the previous`).join('\n'),
    ],
    ['long base64 and hex runs', `${'QUJD'.repeat(50_000)}\n${'\\x41'.repeat(50_000)}\n${'A'.repeat(200_000)}=`],
  ];

  it.each(inputs)('scans %s in well under 5 s', (_name, text) => {
    const start = performance.now();
    scanSkillText(text, { file: 'big.md' });
    expect(performance.now() - start).toBeLessThan(5_000);
  });
});
