import { describe, expect, it } from 'vitest';
import { formatCount } from '../../src/core/format-count.js';

describe('formatCount', () => {
  it('writes what toLocaleString("en-US") writes for whole numbers', () => {
    for (const n of [0, 7, 999, 1000, 1024, 12345, 100000, 1234567, 8_000_000_000, Number.MAX_SAFE_INTEGER])
      expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
  });
});
