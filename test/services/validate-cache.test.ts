import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContentCache } from '../../src/core/content-cache.js';
import { openValidateCache, type CachedValidation } from '../../src/services/validate-cache.js';
import { runValidate } from '../../src/services/validate.js';
import { createFileCache, type FileCache } from '../../src/store/file-cache.js';
import { readTrackedBlobs } from '../../src/store/scan/tracked-blobs.js';
import { repoWith } from '../helpers/repo.js';
import { skillText } from '../helpers/tmp.js';

const library = {
  'skills/alpha/SKILL.md': skillText('alpha', '', '# alpha\n\nSee [beta](../beta/SKILL.md) and [gone](../gone/SKILL.md).\n'),
  'skills/beta/SKILL.md': skillText('beta'),
  'skills/Bad_Name/SKILL.md': '---\nname: Bad_Name\ndescription: x\n---\nBody\n',
};

/** A run with a cache carried over from `previous` (as the CLI reads it back from the file). */
function run(repo: string, previous?: ContentCache<CachedValidation>) {
  const next = new ContentCache<CachedValidation>(previous?.toData(), 'test', (v): v is CachedValidation => typeof v === 'object');
  return { report: runValidate({ cwd: repo, cache: next }), cache: next };
}

describe('validate cache', () => {
  it('gives the plain report, and a repeat checks no skill again', () => {
    const repo = repoWith(library);
    const plain = runValidate({ cwd: repo });
    expect(plain.errors).toBeGreaterThan(0);
    const first = run(repo);
    expect(first.report).toEqual(plain);
    expect(first.cache).toMatchObject({ misses: 3, hits: 0 });
    const second = run(repo, first.cache);
    expect(second.report).toEqual(plain);
    expect(second.cache).toMatchObject({ misses: 0, hits: 3 });
  });

  it('checks a skill again when its bytes, its files or a path it links to outside itself change', () => {
    const repo = repoWith(library);
    let last = run(repo).cache;
    const again = (misses: number) => {
      const next = run(repo, last);
      expect(next.report).toEqual(runValidate({ cwd: repo }));
      expect(next.cache.misses).toBe(misses);
      last = next.cache;
      return next.report;
    };
    writeFileSync(join(repo, 'skills/beta/SKILL.md'), skillText('beta', '', '# beta\n\nChanged.\n'));
    again(1);
    writeFileSync(join(repo, 'skills/beta/notes.md'), 'notes\n');
    again(1);
    // alpha links to a sibling that does not exist: creating it changes alpha's findings though alpha is unchanged.
    const broken = (report: ReturnType<typeof runValidate>) => report.findings.filter((f) => f.file === 'skills/alpha/SKILL.md').length;
    const before = broken(again(0));
    mkdirSync(join(repo, 'skills/gone'));
    writeFileSync(join(repo, 'skills/gone/SKILL.md'), skillText('gone'));
    // The new skill, and alpha because a path it looked at now exists.
    expect(broken(again(2))).toBe(before - 1);
  });

  it("reads no SKILL.md git's index says is unchanged, once the cache holds its findings", () => {
    const repo = repoWith(library);
    const tracked = readTrackedBlobs(repo, join(repo, '.git'));
    const counting = () => {
      const files = createFileCache();
      const reads: string[] = [];
      const cache: FileCache = { ...files, read: (path) => (reads.push(path), files.read(path)) };
      return { cache, reads };
    };
    const first = run(repo);
    const seen = counting();
    const next = new ContentCache<CachedValidation>(first.cache.toData(), 'test', (v): v is CachedValidation => typeof v === 'object');
    const report = runValidate({ cwd: repo, cache: next, files: seen.cache, ...(tracked ? { tracked } : {}) });
    expect(report).toEqual(runValidate({ cwd: repo }));
    expect(seen.reads).toEqual([]);
    // Changed on disk: the stat no longer matches the index, so it is read and checked again.
    writeFileSync(join(repo, 'skills/beta/SKILL.md'), '---\nname: beta\n---\n');
    const changed = counting();
    const again = runValidate({ cwd: repo, cache: next, files: changed.cache, ...(tracked ? { tracked } : {}) });
    expect(again).toEqual(runValidate({ cwd: repo }));
    expect(changed.reads.map((p) => p.slice(repo.length + 1))).toEqual(['skills/beta/SKILL.md']);
  });

  it('ignores a corrupt cache file', async () => {
    const repo = repoWith(library);
    mkdirSync(join(repo, '.git', 'skillgarden'), { recursive: true });
    for (const bad of ['{"version":', '{"version":2,"rules":"x","keys":["k"],"values":[{"findings":"no"}]}', '7']) {
      writeFileSync(join(repo, '.git', 'skillgarden', 'validate-cache.json'), bad);
      const opened = await openValidateCache(repo);
      expect(opened?.cache.toData().keys).toEqual([]);
      expect(runValidate({ cwd: repo, ...(opened ? { cache: opened.cache } : {}) })).toEqual(runValidate({ cwd: repo }));
    }
  });
});
