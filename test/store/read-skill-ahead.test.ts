import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverSkills } from '../../src/store/discover.js';
import { createFileCache } from '../../src/store/file-cache.js';
import { readAheadBudget, readSkillFolder } from '../../src/store/read-skill.js';
import { skillsRoot } from '../helpers/corpus.js';

/** What a folder holds by a plain walk: every non-folder below it with its `lstat` size (the reader's plain path). */
function plainSizes(dir: string, prefix = ''): Map<string, number> {
  const out = new Map<string, number>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) for (const [k, v] of plainSizes(join(dir, entry.name), rel)) out.set(k, v);
    else out.set(rel, lstatSync(join(dir, entry.name)).size);
  }
  return out;
}

/** The reader three ways: no cache (SKILL.md's size from its read), a cache, a cache reading ahead for the scan. */
function readThreeWays(dir: string, root: string, readAheadBytes = 1 << 20) {
  const reportPath = relative(root, join(dir, 'SKILL.md')).split(sep).join('/');
  const options = { reportPath, boundary: root, repository: root };
  const plain = readSkillFolder(dir, options);
  const cached = readSkillFolder(dir, { ...options, files: createFileCache() });
  const files = createFileCache();
  const ahead = readSkillFolder(dir, { ...options, files, readAheadBytes });
  return { plain, cached, ahead, files };
}

describe('readSkillFolder: the read-ahead and SKILL.md-from-its-read paths against plain lstat sizes', () => {
  it('lists the same files, sizes and findings for every skill of the corpus', () => {
    const skills = discoverSkills(skillsRoot, { deep: { maxDepth: 8 } });
    expect(skills.length).toBeGreaterThan(10);
    let supportFiles = 0;
    for (const skill of skills) {
      const { plain, cached, ahead } = readThreeWays(skill.dir, skillsRoot);
      // A nested skill's files are its parent's too: compare with a plain walk of the whole folder (depth ≤ 8).
      const sizes = new Map([...plain.files].map(([k, v]) => [k, v.size]));
      const walked = plainSizes(skill.dir);
      for (const [rel, size] of sizes) expect(size, `${skill.dir}/${rel}`).toBe(walked.get(rel));
      for (const other of [cached, ahead]) {
        expect([...other.files.entries()], skill.dir).toEqual([...plain.files.entries()]);
        expect(other.findings, skill.dir).toEqual(plain.findings);
        expect(Buffer.from(other.bytes!).equals(Buffer.from(plain.bytes!)), skill.dir).toBe(true);
      }
      supportFiles += plain.files.size - 1;
    }
    expect(supportFiles).toBeGreaterThan(0);
  });
});

describe('readSkillFolder: edge cases of the fast paths', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  it('keeps a read-ahead file for the scan, skips links and files over the bound, and sizes a linked SKILL.md as a link', () => {
    root = mkdtempSync(join(tmpdir(), 'sg-read-ahead-'));
    const dir = join(root, 'skill');
    mkdirSync(join(dir, 'references'), { recursive: true });
    writeFileSync(join(root, 'real.md'), '---\nname: skill\ndescription: Does a thing. Use when asked.\n---\nBody\n');
    symlinkSync(join(root, 'real.md'), join(dir, 'SKILL.md'));
    writeFileSync(join(dir, 'references', 'small.md'), 'small');
    writeFileSync(join(dir, 'references', 'big.md'), 'x'.repeat(64));
    symlinkSync('small.md', join(dir, 'references', 'alias.md'));
    const { plain, cached, ahead, files } = readThreeWays(dir, root, 16);
    expect(plain.files.get('SKILL.md')?.size).toBe(lstatSync(join(dir, 'SKILL.md')).size);
    expect(plain.files.get('references/big.md')?.size).toBe(64);
    for (const other of [cached, ahead]) {
      expect([...other.files.entries()]).toEqual([...plain.files.entries()]);
      expect(other.findings).toEqual(plain.findings);
    }
    expect(files.take(join(dir, 'references', 'small.md'))?.bytes.toString()).toBe('small');
    // Over the bound: only its size was taken from the open handle; the scan reads it itself.
    expect(files.take(join(dir, 'references', 'big.md'))).toBeUndefined();
    expect(files.take(join(dir, 'references', 'alias.md'))).toBeUndefined();
  });

  it('keeps no more than the budget of one skill for the scan, and still sizes every file', () => {
    root = mkdtempSync(join(tmpdir(), 'sg-read-ahead-'));
    const dir = join(root, 'skill');
    mkdirSync(join(dir, 'data'), { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'), '---\nname: skill\ndescription: Does a thing. Use when asked.\n---\nBody\n');
    const each = 1024 * 1024;
    const count = readAheadBudget / each + 3;
    for (let i = 0; i < count; i++) writeFileSync(join(dir, 'data', `f${i}.bin`), Buffer.alloc(each, i));
    const { plain, ahead, files } = readThreeWays(dir, root, each);
    expect([...ahead.files.entries()]).toEqual([...plain.files.entries()]);
    let kept = 0;
    for (let i = 0; i < count; i++) kept += files.take(join(dir, 'data', `f${i}.bin`))?.bytes.length ?? 0;
    expect(kept).toBe(readAheadBudget);
  });

  // Root reads a mode-000 file: nothing to prove there.
  it.skipIf(process.getuid?.() === 0)('reports an unreadable SKILL.md as before and still lists it with its size', () => {
    root = mkdtempSync(join(tmpdir(), 'sg-read-ahead-'));
    const dir = join(root, 'skill');
    mkdirSync(dir);
    writeFileSync(join(dir, 'SKILL.md'), 'text', { mode: 0o000 });
    const { plain, ahead } = readThreeWays(dir, root);
    expect(plain.findings.map((f) => f.code)).toEqual(['skill/unreadable']);
    expect(plain.files.get('SKILL.md')?.size).toBe(4);
    expect([...ahead.files.entries()]).toEqual([...plain.files.entries()]);
  });
});
