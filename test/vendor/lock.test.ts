import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeDigest,
  parseLock,
  planFileMerge,
  requirePinned,
  resolveSource,
  serializeLock,
  type SkillsLock,
} from '../../src/core/vendor/index.js';

// vercel-labs/skills' project lock (src/local-lock.ts), as documented there: version 1, skills by name, each with
// source, sourceType, computedHash and an optional ref; written sorted, two-space JSON, a final newline.
const theirs = `{
  "version": 1,
  "skills": {
    "frontend-design": {
      "source": "anthropics/skills",
      "sourceType": "github",
      "computedHash": "5f1a0c3b9d0e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a"
    },
    "pdf": {
      "source": "anthropics/skills",
      "ref": "main",
      "sourceType": "github",
      "computedHash": "0e4f0c3b9d0e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a"
    }
  }
}
`;

/** Their `computeSkillFolderHash`, restated: files sorted by relative path (localeCompare), path then bytes into one sha256. */
function theirHash(files: { path: string; bytes: Uint8Array }[]): string {
  const hash = createHash('sha256');
  for (const f of [...files].sort((a, b) => a.path.localeCompare(b.path, 'en'))) hash.update(f.path).update(f.bytes);
  return hash.digest('hex');
}

describe('skills-lock.json, shared with vercel-labs/skills', () => {
  it('reads a lock in their shape, and writes it back byte for byte', () => {
    const lock = parseLock(theirs);
    expect(Object.keys(lock.skills)).toEqual(['frontend-design', 'pdf']);
    expect(serializeLock(lock)).toBe(theirs);
  });

  it('writes entries their reader accepts: the shared fields with their meaning, ours beside them', () => {
    const lock: SkillsLock = parseLock(theirs);
    lock.skills.xlsx = {
      source: 'anthropics/skills',
      sourceType: 'github',
      ref: 'main',
      computedHash: 'ab'.repeat(32),
      sourceUrl: 'https://github.com/anthropics/skills.git',
      skillPath: 'skills/xlsx',
      commit: 'c'.repeat(40),
      installedAt: '2026-05-01T10:00:00.000Z',
    };
    const read = JSON.parse(serializeLock(lock)) as { version: unknown; skills: Record<string, Record<string, unknown>> };
    expect(read.version).toBe(1);
    for (const entry of Object.values(read.skills)) {
      expect(typeof entry.source).toBe('string');
      expect(typeof entry.sourceType).toBe('string');
      expect(entry.computedHash).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(Object.keys(read.skills)).toEqual(['frontend-design', 'pdf', 'xlsx']);
  });

  it('computes computedHash as they do, whatever the order of the listing', () => {
    const file = fc.record({
      path: fc.stringMatching(/^[a-zA-Z0-9_.-]{1,8}(\/[a-zA-Z0-9_.-]{1,8})?$/),
      bytes: fc.uint8Array({ maxLength: 32 }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(file, { selector: (f) => f.path, maxLength: 8 }), (files) => {
        expect(computeDigest(files)).toBe(theirHash(files));
        expect(computeDigest([...files].reverse())).toBe(computeDigest(files));
      }),
    );
  });

  it('names the skill another tool wrote without a pin, and the line of a broken lock', () => {
    const lock = parseLock(theirs);
    expect(() => requirePinned('pdf', lock.skills.pdf!)).toThrow(/skill "pdf" has no pinned commit/);
    expect(() => parseLock('{\n  "version": 1,\n  "skills": {,}\n}\n')).toThrow(/skills-lock\.json:3: not JSON/);
    expect(() => parseLock('{"version": 1, "skills": {"pdf": {"source": 1}}}')).toThrow(/skill "pdf" needs "source" and "computedHash"/);
  });
});

describe('sources and the three-way decision', () => {
  it.each([
    ['anthropics/skills', undefined, 'github', 'https://github.com/anthropics/skills.git'],
    ['file:///srv/skills.git', undefined, 'git', 'file:///srv/skills.git'],
    ['git@github.com:a/b.git', undefined, 'git', 'git@github.com:a/b.git'],
    ['./vendor/skills', '/repo/vendor/skills', 'local', '/repo/vendor/skills'],
  ])('%s is a %s source', (input, local, type, url) => {
    expect(resolveSource(input, local)).toMatchObject({ sourceType: type, url });
  });

  it('refuses what is none of them', () => {
    expect(() => resolveSource('not a source', undefined)).toThrow(/is not a git URL, an existing folder, or owner\/repo/);
  });

  const b = (s: string) => Buffer.from(s);
  it.each([
    ['unchanged upstream', { base: b('a'), ours: b('x'), theirs: b('a') }, 'keep'],
    ['same change on both sides', { base: b('a'), ours: b('y'), theirs: b('y') }, 'keep'],
    ['changed upstream only', { base: b('a'), ours: b('a'), theirs: b('z') }, 'take'],
    ['new upstream', { base: undefined, ours: undefined, theirs: b('z') }, 'take'],
    ['removed upstream', { base: b('a'), ours: b('a'), theirs: undefined }, 'delete'],
    ['changed on both sides', { base: b('a'), ours: b('x'), theirs: b('z') }, 'merge'],
    ['removed here, changed upstream', { base: b('a'), ours: undefined, theirs: b('z') }, 'conflict'],
    ['changed here, removed upstream', { base: b('a'), ours: b('x'), theirs: undefined }, 'conflict'],
    ['added on both sides, differently', { base: undefined, ours: b('x'), theirs: b('z') }, 'merge'],
    ['a binary file changed on both sides', { base: b('a\0'), ours: b('x\0'), theirs: b('z\0') }, 'conflict'],
  ])('%s: %s', (_, sides, kind) => {
    expect(planFileMerge(sides).kind).toBe(kind);
  });
});
