import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDirCache } from '../../src/store/dir-cache.js';
import { tempDir } from '../helpers/tmp.js';

const kinds = (e: Dirent) => ({
  name: e.name,
  parentPath: e.parentPath,
  file: e.isFile(),
  dir: e.isDirectory(),
  link: e.isSymbolicLink(),
  fifo: e.isFIFO(),
  socket: e.isSocket(),
  char: e.isCharacterDevice(),
  block: e.isBlockDevice(),
});

describe('folder listings handed to another thread', () => {
  it('rebuilds every kind of entry as readdir gave it, and lists what it was not given', () => {
    const root = tempDir('skillgarden-dircache-');
    const skill = join(root, 'skill');
    mkdirSync(join(skill, 'references'), { recursive: true });
    writeFileSync(join(skill, 'SKILL.md'), '---\nname: skill\n---\n');
    symlinkSync('SKILL.md', join(skill, 'link.md'));
    execFileSync('mkfifo', [join(skill, 'pipe')]);
    const first = createDirCache();
    first(skill);
    const packed = first.pack([skill, join(root, 'never-listed')]);
    // Plain data only: it crosses to a worker by structured clone.
    expect(structuredClone(packed)).toEqual(packed);
    expect(packed).toHaveLength(1);
    const listed = readdirSync(skill, { withFileTypes: true }).map(kinds);
    // Written after the pack: the seeded cache answers from the seed, not from the folder.
    writeFileSync(join(skill, 'later.md'), 'x');
    const second = createDirCache(structuredClone(packed));
    expect(second(skill).map(kinds)).toEqual(listed);
    expect(
      second(skill)
        .map(kinds)
        .filter((k) => k.file || k.dir || k.link || k.fifo),
    ).toHaveLength(4);
    expect(second(join(skill, 'references'))).toEqual([]);
  });
});
