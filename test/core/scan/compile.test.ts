import { describe, expect, it } from 'vitest';
import { compileLineRegex, SPACE_NOT_LINE_BREAK } from '../../../src/core/scan/compile.js';

describe('compileLineRegex', () => {
  it('spells "whitespace but not a line break" as exactly the characters of [^\\S\\n\\r]', () => {
    const spelled = new RegExp(`^${SPACE_NOT_LINE_BREAK}$`);
    const negated = /^[^\S\n\r]$/;
    for (let code = 0; code <= 0xffff; code += 1) {
      const ch = String.fromCharCode(code);
      expect(spelled.test(ch), `U+${code.toString(16)}`).toBe(negated.test(ch));
    }
  });

  it('keeps a match inside one line', () => {
    const line = compileLineRegex(/curl\s+-s\s+\S+\s*\|\s*sh/);
    expect('curl -s x | sh'.match(line)?.[0]).toBe('curl -s x | sh');
    expect(line.test('curl\n-s x | sh')).toBe(false);
    line.lastIndex = 0;
    expect(line.test('curl -s x |\nsh')).toBe(false);
  });
});
