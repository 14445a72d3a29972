import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dirListingsFileName } from '../../src/store/dir-listings-file.js';
import { folderStampProbe, folderStampsFileName } from '../../src/store/folder-stamp-probe.js';
import { validateMemoFileName } from '../../src/services/validate-memo.js';
import { cli } from '../helpers/cli.js';
import { repoWith } from '../helpers/repo.js';
import { ageTree as age, skillText } from '../helpers/tmp.js';

const cacheDir = (gitdir: string) => join(gitdir, 'skillgarden');

function folders(): { dir: string; gitdir: string } {
  const root = mkdtempSync(join(tmpdir(), 'sg-stamp-probe-'));
  const dir = join(root, 'work');
  const gitdir = join(root, 'work', '.git');
  mkdirSync(gitdir, { recursive: true });
  return { dir, gitdir };
}

describe('folder-stamp probe (git update-index --test-untracked-cache, for the kept listings and report)', () => {
  it('finds that this file system moves folder and file stats, keeps the verdict, and leaves no probe folder', () => {
    const { dir, gitdir } = folders();
    const probe = folderStampProbe(dir, gitdir);
    expect(probe.verdict()).toBeUndefined();
    expect(probe.settle()).toBe(true);
    expect(probe.verdict()).toBe(true);
    const kept = JSON.parse(readFileSync(join(cacheDir(gitdir), folderStampsFileName), 'utf8')) as { trusted: boolean; dev: number };
    expect(kept).toEqual({ version: 1, dev: statSync(dir).dev, trusted: true });
    expect(readdirSync(cacheDir(gitdir)).filter((n) => n.startsWith('stamp-probe-'))).toEqual([]);
  });

  it('answers in the background when the event loop runs (no wait at save time)', async () => {
    const { dir, gitdir } = folders();
    const probe = folderStampProbe(dir, gitdir);
    for (let i = 0; i < 200 && probe.verdict() === undefined; i++) await new Promise((r) => setTimeout(r, 10));
    expect(probe.verdict()).toBe(true);
  });

  it('reads a kept verdict for the same file system, probes again for another', () => {
    const { dir, gitdir } = folders();
    mkdirSync(cacheDir(gitdir), { recursive: true });
    const file = join(cacheDir(gitdir), folderStampsFileName);
    writeFileSync(file, JSON.stringify({ version: 1, dev: statSync(dir).dev, trusted: false }));
    expect(folderStampProbe(dir, gitdir).verdict()).toBe(false);
    const moved = folders();
    mkdirSync(cacheDir(moved.gitdir), { recursive: true });
    writeFileSync(join(cacheDir(moved.gitdir), folderStampsFileName), JSON.stringify({ version: 1, dev: -1, trusted: false }));
    expect(folderStampProbe(moved.dir, moved.gitdir).settle()).toBe(true);
  });

  it('does not speak for a worktree on another mount than its git folder', () => {
    if (!existsSync('/dev/shm') || statSync('/dev/shm').dev === statSync(tmpdir()).dev) return;
    const dir = mkdtempSync('/dev/shm/sg-stamp-probe-');
    const { gitdir } = folders();
    const probe = folderStampProbe(dir, gitdir);
    expect(probe.settle()).toBe(false);
  });

  it('a worker thread (start: false) only reads a kept verdict: it starts nothing and writes nothing', () => {
    const { dir, gitdir } = folders();
    const probe = folderStampProbe(dir, gitdir, false);
    expect(probe.verdict()).toBeUndefined();
    expect(probe.settle()).toBe(false);
    expect(existsSync(cacheDir(gitdir))).toBe(false);
  });

  it('a process that ends before the probe answers takes its probe folder with it', () => {
    const { dir, gitdir } = folders();
    // The built module (test/global-setup.ts builds lib/), in a process of its own that exits at once.
    const lib = fileURLToPath(new URL('../../lib/store/folder-stamp-probe.js', import.meta.url));
    const script = `import(${JSON.stringify(lib)}).then((m) => { m.folderStampProbe(${JSON.stringify(dir)}, ${JSON.stringify(gitdir)}); });`;
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(child.status, child.stderr).toBe(0);
    expect(readdirSync(cacheDir(gitdir))).toEqual([]);
  });

  it('removes a probe folder a stopped process left behind', () => {
    const { dir, gitdir } = folders();
    const left = join(cacheDir(gitdir), 'stamp-probe-left');
    mkdirSync(join(left, 'd0'), { recursive: true });
    const old = new Date(Date.now() - 120_000);
    utimesSync(left, old, old);
    folderStampProbe(dir, gitdir).settle();
    expect(existsSync(left)).toBe(false);
  });

  it('a file system found untrusted keeps no folder listings and no report: every run lists and validates afresh', async () => {
    const repo = repoWith({ 'skills/alpha/SKILL.md': skillText('alpha'), 'skills/beta/SKILL.md': skillText('beta') });
    age(repo);
    const gitdir = join(repo, '.git');
    mkdirSync(cacheDir(gitdir), { recursive: true });
    writeFileSync(join(cacheDir(gitdir), folderStampsFileName), JSON.stringify({ version: 1, dev: statSync(repo).dev, trusted: false }));
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await cli(['validate', '--json'], { cwd: repo }));
    expect(new Set(runs.map((r) => r.stdout)).size).toBe(1);
    expect(existsSync(join(cacheDir(gitdir), dirListingsFileName))).toBe(false);
    expect(existsSync(join(cacheDir(gitdir), validateMemoFileName))).toBe(false);
    // The same library where the probe passes keeps both.
    const trusted = repoWith({ 'skills/alpha/SKILL.md': skillText('alpha'), 'skills/beta/SKILL.md': skillText('beta') });
    age(trusted);
    for (let i = 0; i < 3; i++) await cli(['validate', '--json'], { cwd: trusted });
    expect(existsSync(join(trusted, '.git', 'skillgarden', dirListingsFileName))).toBe(true);
    expect(existsSync(join(trusted, '.git', 'skillgarden', validateMemoFileName))).toBe(true);
  });
});
