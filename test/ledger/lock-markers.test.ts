import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Ledger } from '../../src/ledger/ledger.js';
import { acquireLock, lockOwnerDir, parseLockMarker } from '../../src/ledger/lock-file.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { runDoctor } from '../../src/services/doctor.js';
import { repoWith } from '../helpers/repo.js';
import { fixedAuthor, rejectsWith } from './git-repo.js';

/** A pid that ran and is gone. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

/** What a SIGKILL right after `link()` leaves: the marker of a dead process and the lock, one file with two names. */
function leaveLock(dir: string, pid: number): { lock: string; marker: string } {
  const folder = lockOwnerDir(join(dir, '.git'));
  mkdirSync(folder, { recursive: true });
  const marker = join(folder, `${pid}@${encodeURIComponent(hostname())}@0123abcd`);
  writeFileSync(marker, '');
  const lock = join(dir, '.git', 'index.lock');
  linkSync(marker, lock);
  return { lock, marker };
}

const ledgers: Ledger[] = [];
afterEach(async () => {
  for (const ledger of ledgers.splice(0)) await ledger.close();
});

describe('lock ownership markers', () => {
  it('doctor --fix removes a lock whose marker names a process that is gone, whenever it died', async () => {
    const dir = repoWith({ 'skills/a/SKILL.md': 'a\n' });
    const { lock, marker } = leaveLock(dir, deadPid());
    const report = await runDoctor(dir, { fix: false, skillsDir: 'skills' });
    expect(report.findings).toEqual([expect.objectContaining({ kind: 'stale-lock', path: lock, fixable: true })]);
    await runDoctor(dir, { fix: true, skillsDir: 'skills' });
    expect(existsSync(lock)).toBe(false);
    expect(existsSync(marker)).toBe(false);
    expect((await runDoctor(dir, { fix: false, skillsDir: 'skills' })).findings).toEqual([]);
  });

  it('leaves a lock at that path made since by someone else (another file), and says it is held', async () => {
    const dir = repoWith({ 'skills/a/SKILL.md': 'a\n' });
    const { lock, marker } = leaveLock(dir, deadPid());
    // The dead process's lock was removed and a running git took the path again: a different file.
    rmSync(lock);
    writeFileSync(lock, 'a running git\n');
    await runDoctor(dir, { fix: true, skillsDir: 'skills' });
    expect(existsSync(lock)).toBe(true);
    expect(existsSync(marker)).toBe(false);
    const after = await runDoctor(dir, { fix: false, skillsDir: 'skills' });
    expect(after.findings).toEqual([expect.objectContaining({ kind: 'held-lock', path: lock, fixable: false })]);
  });

  it('a live process keeps its lock: doctor reports nothing it may remove', async () => {
    const dir = repoWith({ 'skills/a/SKILL.md': 'a\n' });
    const held = await acquireLock(join(dir, '.git', 'index'), { timeoutMs: 100, ownerDir: lockOwnerDir(join(dir, '.git')) });
    const names = readdirSync(lockOwnerDir(join(dir, '.git')));
    expect(names.map(parseLockMarker)).toEqual([{ pid: process.pid, host: hostname() }]);
    const report = await runDoctor(dir, { fix: true, skillsDir: 'skills' });
    expect(report.fixed).toEqual([]);
    expect(existsSync(held.path)).toBe(true);
    await held.release();
    expect(existsSync(held.path)).toBe(false);
    expect(readdirSync(lockOwnerDir(join(dir, '.git')))).toEqual([]);
  });

  it('a commit blocked by a held lock names it and says to run skillgarden doctor; a commit leaves no marker', async () => {
    const dir = repoWith({ 'skills/a/SKILL.md': 'a\n' });
    const ledger = await openLedger(dir, { backend: 'isomorphic-git', author: fixedAuthor, lockTimeoutMs: 200 });
    ledgers.push(ledger);
    await ledger.commit({ message: 'one', changes: [{ path: 'skills/a/SKILL.md', content: 'b\n' }] });
    expect(readdirSync(lockOwnerDir(join(dir, '.git')))).toEqual([]);
    writeFileSync(join(dir, '.git', 'index.lock'), '');
    const error = await ledger
      .commit({ message: 'two', changes: [{ path: 'skills/a/SKILL.md', content: 'c\n' }] })
      .catch((e: unknown) => (e as Error).message);
    expect(error).toContain(join(dir, '.git', 'index.lock'));
    expect(error).toContain('skillgarden doctor');
    await rejectsWith(ledger.commit({ message: 'two', changes: [{ path: 'skills/a/SKILL.md', content: 'c\n' }] }), 'ledger/locked');
  });
});
