import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expandTranscriptPaths } from '../../../src/store/transcripts/expand-paths.js';
import { readTranscriptFiles } from '../../../src/store/transcripts/read-transcripts.js';

const dir = mkdtempSync(join(tmpdir(), 'sg-expand-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
for (const path of ['a/one.jsonl', 'a/sub/two.jsonl', 'a/sub/notes.md', 'b/three.traj', 'b/node_modules/x.jsonl', '.hidden/four.jsonl']) {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), '');
}

describe('expandTranscriptPaths', () => {
  it('expands globs relative to cwd, sorted and without duplicates', async () => {
    const result = await expandTranscriptPaths(['a/**/*.jsonl', 'a/one.jsonl'], { cwd: dir });
    expect(result).toEqual({
      files: [join(dir, 'a/one.jsonl'), join(dir, 'a/sub/two.jsonl')],
      unmatched: [],
      truncated: false,
      // Each file's root is where the first pattern that found it starts: reports name transcripts relative to it.
      roots: new Map([
        [join(dir, 'a/one.jsonl'), join(dir, 'a')],
        [join(dir, 'a/sub/two.jsonl'), join(dir, 'a')],
      ]),
    });
  });

  it('takes a folder as every transcript file under it, outside node_modules', async () => {
    const result = await expandTranscriptPaths(['b', '.hidden'], { cwd: dir });
    expect(result.files).toEqual([join(dir, '.hidden/four.jsonl'), join(dir, 'b/three.traj')]);
  });

  it('returns patterns that match nothing instead of throwing', async () => {
    const result = await expandTranscriptPaths(['missing.jsonl', 'a/**/*.json'], { cwd: dir });
    expect(result).toEqual({
      files: [],
      unmatched: ['missing.jsonl', 'a/**/*.json'],
      truncated: false,
      roots: new Map(),
    });
  });

  it('stops a walk at its entry budget and says so', async () => {
    const result = await expandTranscriptPaths(['**/*.jsonl'], {
      cwd: dir,
      maxEntries: 2,
    });
    expect(result.truncated).toBe(true);
  });
});

describe('readTranscriptFiles', () => {
  it('yields a result per file and reports a file it cannot read instead of throwing', async () => {
    const results = [];
    for await (const result of readTranscriptFiles([join(dir, 'a/one.jsonl'), join(dir, 'gone.jsonl')], {
      displayPath: (f) => f.slice(dir.length + 1),
    })) {
      results.push(result);
    }
    expect(results.map((r) => r.skipped)).toEqual([
      [{ file: 'a/one.jsonl', reason: 'no sessions found', count: 1 }],
      [
        {
          file: 'gone.jsonl',
          reason: 'could not read the file (ENOENT)',
          count: 1,
        },
      ],
    ]);
  });
});
