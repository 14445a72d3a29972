import fc from 'fast-check';
import { join, normalize, posix, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { joinEntry, labelUnder, shownUnder } from '../../../src/store/scan/join-path.js';

// Path pieces that stress normalisation: empty segments, dots, doubled and trailing separators.
const segment = fc.constantFrom('', '.', '..', 'a', 'skills', 'pdf', '.hidden', 'a b', 'é');
const path = fc
  .tuple(fc.boolean(), fc.array(segment, { maxLength: 6 }), fc.boolean())
  .map(([absolute, parts, trailing]) => `${absolute ? '/' : ''}${parts.join('/')}${trailing ? '/' : ''}`);
// What a folder listing can name: never empty, `.`, `..` or holding a separator.
const name = fc.stringMatching(/^[^/\0]{1,12}$/).filter((n) => n !== '.' && n !== '..');

describe('the scan walk joins paths as path.join does', () => {
  it('a folder entry under a normalised parent', () => {
    fc.assert(
      fc.property(path, fc.array(name, { minLength: 1, maxLength: 4 }), (parent, names) => {
        let fast = normalize(parent);
        let plain = parent;
        for (const n of names) {
          fast = joinEntry(fast, n, '/');
          plain = join(plain, n);
          expect(fast).toBe(plain);
        }
      }),
    );
  });

  it('a walked file under any label, as posix.join(label, rel)', () => {
    fc.assert(
      fc.property(path, fc.array(name, { minLength: 1, maxLength: 4 }), (label, names) => {
        const rel = names.join('/');
        expect(shownUnder(label)(rel)).toBe(posix.join(label, rel));
      }),
    );
  });

  it("a skill folder's label under the repository, as path.relative gives it", () => {
    const odd = fc.constantFrom('', '.', '..', 'a', 'b\\c', '.claude', 'skills');
    const abs = fc.array(odd, { maxLength: 5 }).map((parts) => `/${parts.join('/')}`);
    fc.assert(
      fc.property(abs, fc.array(odd, { maxLength: 4 }), fc.boolean(), (repo, under, trailing) => {
        const dir = `${repo}${repo.endsWith('/') ? '' : '/'}${under.join('/')}${trailing ? '/' : ''}`;
        for (const [from, to] of [
          [repo, dir],
          [repo, repo],
          [dir, repo],
        ] as const)
          expect(labelUnder(from, to), `${from} -> ${to}`).toBe(relative(from, to).split('\\').join('/') || '.');
      }),
    );
  });
});
