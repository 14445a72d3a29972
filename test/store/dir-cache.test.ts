import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDirCache, racyListingMs, type KeptListing } from '../../src/store/dir-cache.js';
import { openKeptListings } from '../../src/store/dir-listings-file.js';
import { skillsRoot } from '../helpers/corpus.js';
import { repoWith } from '../helpers/repo.js';
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
    mkdirSync(join(skill, 'references', 'deeper', 'unlisted'), { recursive: true });
    writeFileSync(join(skill, 'references', 'notes.md'), '# Notes\n');
    const first = createDirCache();
    first(skill);
    first(join(skill, 'references'));
    first(join(skill, 'references', 'deeper'));
    const packed = first.pack([skill, join(root, 'never-listed')]);
    // Plain data only: it crosses to a worker by structured clone.
    expect(structuredClone(packed)).toEqual(packed);
    // The folder and the folders below it that were listed, not those that were not.
    expect(packed.map(([path]) => path)).toEqual([skill, join(skill, 'references'), join(skill, 'references', 'deeper')]);
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
    for (const folder of [join(skill, 'references'), join(skill, 'references', 'deeper')])
      expect(second(folder).map(kinds)).toEqual(readdirSync(folder, { withFileTypes: true }).map(kinds));
    // Made after the pack: listed, not seeded.
    writeFileSync(join(skill, 'references', 'deeper', 'unlisted', 'new.md'), 'x');
    expect(second(join(skill, 'references', 'deeper', 'unlisted')).map((e) => e.name)).toEqual(['new.md']);
  });
});

/** Every folder under `root`, the root included, depth first. */
function foldersUnder(root: string): string[] {
  const out = [root];
  for (const e of readdirSync(root, { withFileTypes: true })) if (e.isDirectory()) out.push(...foldersUnder(join(root, e.name)));
  return out;
}

/** Sets a folder's mtime well before now (ctime stays now): its listing is no longer racy. */
const age = (dir: string) => utimesSync(dir, new Date(Date.now() - 10 * racyListingMs), new Date(Date.now() - 10 * racyListingMs));

/** A run's listings of `dirs` with the listings an earlier run kept, and what it kept afresh. */
function listAll(dirs: readonly string[], kept: ReadonlyMap<string, KeptListing>) {
  const cache = createDirCache(undefined, kept);
  const listed = new Map(dirs.map((d) => [d, cache(d).map(kinds)]));
  return { listed, fresh: new Map(cache.fresh().map((l) => [l[0], l])) };
}

describe('folder listings kept across runs', () => {
  it("gives readdir's listings of every folder of the corpus, kept or read", () => {
    const dirs = foldersUnder(skillsRoot);
    const plain = new Map(dirs.map((d) => [d, readdirSync(d, { withFileTypes: true }).map(kinds)]));
    const first = listAll(dirs, new Map());
    expect(first.listed).toEqual(plain);
    // The corpus is not being written: every folder's listing is kept.
    expect(first.fresh.size).toBe(dirs.length);
    const second = listAll(dirs, first.fresh);
    expect(second.listed).toEqual(plain);
    expect(second.fresh.size).toBe(0);
  });

  it("answers from the kept listing only while the folder's stat is the one kept with it", () => {
    const root = tempDir('skillgarden-kept-');
    const skill = join(root, 'skill');
    mkdirSync(join(skill, 'references'), { recursive: true });
    writeFileSync(join(skill, 'SKILL.md'), 'x');
    symlinkSync('SKILL.md', join(skill, 'link.md'));
    const dirs = [root, skill, join(skill, 'references')];
    dirs.forEach(age);
    let kept = listAll(dirs, new Map()).fresh;
    expect(kept.size).toBe(3);
    // A kept listing that says otherwise than the folder is what a run is given while the stat matches: it is used.
    const tampered = new Map(kept);
    tampered.set(skill, [...kept.get(skill)!.slice(0, 4), 'SKILL.md/other.md', '11'] as KeptListing);
    expect(
      listAll(dirs, tampered)
        .listed.get(skill)!
        .map((k) => k.name),
    ).toEqual(['SKILL.md', 'other.md']);
    // A listing that does not hold one type per name is not trusted.
    tampered.set(skill, [...kept.get(skill)!.slice(0, 4), 'SKILL.md/other.md', '1'] as KeptListing);
    expect(
      listAll(dirs, tampered)
        .listed.get(skill)!
        .map((k) => k.name),
    ).toEqual(readdirSync(skill));
    const check = (change: () => void, relisted: string[], racy = true) => {
      change();
      const run = listAll(dirs, kept);
      for (const d of dirs) expect(run.listed.get(d)).toEqual(readdirSync(d, { withFileTypes: true }).map(kinds));
      // Just changed: listed again, and not kept (racy) until it has aged.
      expect([...run.fresh.keys()]).toEqual(racy ? [] : relisted);
      relisted.forEach(age);
      const aged = listAll(dirs, kept);
      expect([...aged.fresh.keys()].sort()).toEqual([...relisted].sort());
      kept = new Map([...kept, ...aged.fresh]);
    };
    check(() => writeFileSync(join(skill, 'references', 'new.md'), 'y'), [join(skill, 'references')]);
    check(() => rmSync(join(skill, 'link.md')), [skill]);
    check(() => renameSync(join(skill, 'references', 'new.md'), join(skill, 'references', 'renamed.md')), [join(skill, 'references')]);
    // A file replaced by a folder of the same name: the type changes with it.
    check(() => {
      rmSync(join(skill, 'references', 'renamed.md'));
      mkdirSync(join(skill, 'references', 'renamed.md'));
    }, [join(skill, 'references')]);
    // Its mode changed (its ctime with it): read again, so an unreadable folder still throws as readdir does. Its
    // entries did not change (its mtime is as old as it was), so the new listing is kept at once.
    check(() => chmodSync(skill, 0o700), [skill], false);
    // A folder removed and made again (same names, same mtime set back): another inode.
    const kept2 = kept;
    rmSync(join(skill, 'references'), { recursive: true });
    mkdirSync(join(skill, 'references', 'renamed.md'), { recursive: true });
    const when = new Date(kept2.get(join(skill, 'references'))![1]);
    utimesSync(join(skill, 'references'), when, when);
    expect(listAll(dirs, kept2).listed.get(join(skill, 'references'))).toEqual(
      readdirSync(join(skill, 'references'), { withFileTypes: true }).map(kinds),
    );
    // Not a folder, or not there: readdir's own error.
    rmSync(skill, { recursive: true });
    writeFileSync(skill, 'now a file');
    expect(() => createDirCache(undefined, kept)(skill)).toThrow(/ENOTDIR/);
    expect(() => createDirCache(undefined, kept)(join(skill, 'references'))).toThrow(/ENOTDIR/);
    rmSync(skill);
    expect(() => createDirCache(undefined, kept)(skill)).toThrow(/ENOENT/);
  });

  it('are written to the git folder and read back; a file of another shape is ignored', async () => {
    const repo = repoWith({ 'skills/a/SKILL.md': 'x' });
    const dirs = foldersUnder(join(repo, 'skills'));
    dirs.forEach(age);
    const file = await openKeptListings(repo);
    expect(file?.kept.size).toBe(0);
    const run = createDirCache(undefined, file!.kept);
    dirs.forEach((d) => run(d));
    file!.save(run.fresh());
    const again = await openKeptListings(repo);
    expect([...again!.kept.keys()].sort()).toEqual([...dirs].sort());
    writeFileSync(
      join(again!.gitdir, 'skillgarden', 'dir-listings.json'),
      JSON.stringify({ version: 1, listings: [['x', 1, 2, 'no', '', '']] }),
    );
    expect((await openKeptListings(repo))?.kept.size).toBe(0);
    expect(await openKeptListings(tempDir('skillgarden-not-a-repo-'))).toBeUndefined();
  });
});
