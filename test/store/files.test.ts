import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { blobId, replaceFolders, writeFileAtomic } from '../../src/store/files.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sg-files-'));
  dirs.push(dir);
  return dir;
}

describe('blobId', () => {
  it.each([
    ['empty', ''],
    ['text', 'name: kit\n'],
    ['non-ASCII', 'café ☕\n'],
    ['binary', '\u0000\u00ff\u0001'],
  ])('agrees with git hash-object on %s content', (_label, text) => {
    const bytes = Buffer.from(text, 'utf8');
    const dir = tempDir();
    writeFileSync(join(dir, 'f'), bytes);
    const git = execFileSync('git', ['hash-object', '--no-filters', join(dir, 'f')], { encoding: 'utf8' }).trim();
    expect(blobId(bytes)).toBe(git);
    expect(blobId(text)).toBe(git);
  });
});

describe('writeFileAtomic', () => {
  it('writes the whole content, making the folder, and leaves no temporary file', () => {
    const dir = tempDir();
    const path = join(dir, 'a', 'b', 'file.json');
    writeFileAtomic(path, 'old\n');
    writeFileAtomic(path, Buffer.from('new\n'), { durable: true });
    expect(readFileSync(path, 'utf8')).toBe('new\n');
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['file.json']);
  });

  it('keeps the old file and removes its temporary file when the rename fails', () => {
    const dir = tempDir();
    const path = join(dir, 'target');
    mkdirSync(path);
    writeFileSync(join(path, 'inside'), 'x');
    // A non-empty folder cannot be renamed over: the write fails after the temporary file is written.
    expect(() => writeFileAtomic(path, 'new')).toThrow();
    expect(readdirSync(dir)).toEqual(['target']);
    expect(readFileSync(join(path, 'inside'), 'utf8')).toBe('x');
  });
});

describe('replaceFolders', () => {
  it('swaps each top folder in whole: old files gone, new ones written, no staging left', () => {
    const out = tempDir();
    mkdirSync(join(out, 'site', 'old'), { recursive: true });
    writeFileSync(join(out, 'site', 'old', 'stale.txt'), 'stale');
    writeFileSync(join(out, 'keep.txt'), 'kept');
    const files = new Map<string, string | Uint8Array>([
      ['site/b/index.json', '{}\n'],
      ['site/a.tgz', Buffer.from([1, 2, 3])],
    ]);
    expect(replaceFolders(out, files, ['site'])).toEqual(['site/a.tgz', 'site/b/index.json']);
    expect(readdirSync(out).sort()).toEqual(['keep.txt', 'site']);
    expect(readdirSync(join(out, 'site')).sort()).toEqual(['a.tgz', 'b']);
    expect(readFileSync(join(out, 'site', 'a.tgz'))).toEqual(Buffer.from([1, 2, 3]));
  });

  it('leaves the old folder whole when staging fails', () => {
    const out = tempDir();
    mkdirSync(join(out, 'site'));
    writeFileSync(join(out, 'site', 'old.txt'), 'old');
    // A file where a folder must go: staging fails before any swap.
    const files = new Map([
      ['site/new.txt', 'new'],
      ['site/new.txt/inner', 'y'],
    ]);
    expect(() => replaceFolders(out, files, ['site'])).toThrow();
    expect(readdirSync(join(out, 'site'))).toEqual(['old.txt']);
    expect(readdirSync(out)).toEqual(['site']);
  });
});
