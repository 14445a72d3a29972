import { describe, expect, it } from 'vitest';
import { extractLinks } from '../../../src/core/rules/markdown-links.js';

const targets = (body: string) => extractLinks(body).map((l) => `${l.line}:${l.column}:${l.target}`);

describe('extractLinks', () => {
  it('skips fenced blocks: a fence closes only with its own character, at least as long, indented three spaces at most', () => {
    expect(targets('```\n[a](b)\n```\n[c](d)')).toEqual(['4:5:d']);
    expect(targets('   ```\n[a](b)\n    ```\n[x](y)\n   ```\n[z](w)')).toEqual(['6:5:w']);
    expect(targets('~~~~\n[a](b)\n~~~\n[c](d)\n~~~~\n[e](f)')).toEqual(['6:5:f']);
    expect(targets('````\n[a](b)\n```\n[c](d)\n')).toEqual([]);
  });

  it('reads definitions, not footnotes or code spans, with 1-based lines and columns', () => {
    expect(targets('intro\n[a]: refs/a.md\n[^1]: a note\n`[x](y)` and [p](<q r.md>)\n')).toEqual(['2:6:refs/a.md', '4:18:q r.md']);
    expect(targets('no links here\n')).toEqual([]);
    expect(targets('')).toEqual([]);
  });
});
