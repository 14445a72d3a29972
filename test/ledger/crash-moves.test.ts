import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDoctor } from '../../src/services/doctor.js';
import { cli } from '../helpers/cli.js';
import { seededRandom } from '../helpers/random.js';
import { git, repoWith } from '../helpers/repo.js';
import { skillText } from '../helpers/tmp.js';

const child = join(import.meta.dirname, 'fixtures', 'move-child.ts');
const files = 400;

/** The child and every git it started: what a crash of the whole process tree leaves. */
function killGroup(pid: number | undefined): void {
  try {
    if (pid !== undefined) process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * Runs the child and SIGKILLs it `delayMs` after it has written its objects (it may finish first; no kill when
 * `delayMs` is undefined). `afterGoMs`: how long the child ran after saying "go".
 */
function runAndKill(
  dir: string,
  backend: string,
  action: string,
  delayMs: number | undefined,
): Promise<{ signal: NodeJS.Signals | null; afterGoMs: number }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, dir, backend, action, 'big'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stderr = '';
    let go = 0;
    proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    proc.stdout.on('data', (chunk: Buffer) => {
      if (!chunk.toString().includes('go')) return;
      go = performance.now();
      if (delayMs !== undefined) setTimeout(() => killGroup(proc.pid), delayMs);
    });
    proc.on('error', reject);
    proc.on('exit', (code, signal) =>
      signal === null && code !== 0
        ? reject(new Error(`child failed (${code}): ${stderr}`))
        : resolve({ signal, afterGoMs: performance.now() - go }),
    );
  });
}

function locksLeft(dir: string): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(folder, entry.name));
      else if (entry.name.endsWith('.lock')) found.push(join(folder, entry.name));
    }
  };
  walk(join(dir, '.git'));
  return found;
}

/** Where HEAD has the skill, with how many files: all 400 in one place, none in the other. */
function placeAtHead(dir: string): 'active' | 'archived' {
  const active = git(dir, 'ls-files', '--', 'skills/big').split('\n').filter(Boolean).length;
  const archived = git(dir, 'ls-files', '--', 'skills/.archive/big').split('\n').filter(Boolean).length;
  expect([active, archived].sort((a, b) => a - b)).toEqual([0, files + 1]);
  return active > 0 ? 'active' : 'archived';
}

// Over both backends. A lock left by a SIGKILL between taking it and writing the journal used to be
// unaccounted for (doctor, rightly, left it): locks are now made through ownership markers (lock-file.ts).
describe.each(['isomorphic-git', 'system-git'] as const)('SIGKILL during archive and restore of a 400-file skill (%s)', (backend) => {
  it(
    'leaves each skill as it was or as the commit made it; doctor --fix leaves the tree equal to HEAD, no locks',
    { timeout: 180_000 },
    async () => {
      const tree: Record<string, string> = { 'skills/big/SKILL.md': skillText('big'), 'skills/small/SKILL.md': skillText('small') };
      for (let i = 0; i < files; i += 1) tree[`skills/big/references/part-${String(i).padStart(3, '0')}.md`] = `part ${i}\n`;
      const dir = repoWith(tree);
      const random = seededRandom(backend.length * 13);
      // A folder moves as one rename, so the publish after "go" takes a few milliseconds: the kills are spread over
      // the time one uninterrupted run takes here after "go" (a fixed 0–120 ms mostly landed after the child ended).
      const { afterGoMs } = await runAndKill(dir, backend, 'archive', undefined);
      let interrupted = 0;
      for (let round = 0; round < 10; round += 1) {
        const action = placeAtHead(dir) === 'active' ? 'archive' : 'restore';
        const { signal } = await runAndKill(dir, backend, action, Math.floor(random() * afterGoMs));
        if (signal === 'SIGKILL') interrupted += 1;
        const report = await runDoctor(dir, { fix: true, skillsDir: 'skills' });
        expect(report.findings.filter((f) => !f.fixable).map((f) => `${f.path}: ${f.message}`)).toEqual([]);
        expect(git(dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
        expect(locksLeft(dir)).toEqual([]);
        expect(existsSync(join(dir, '.git/skillgarden/journal')) ? readdirSync(join(dir, '.git/skillgarden/journal')) : []).toEqual([]);
        placeAtHead(dir);
        expect((await runDoctor(dir, { fix: false, skillsDir: 'skills' })).findings).toEqual([]);
      }
      expect(interrupted).toBeGreaterThan(3);
      expect(() => git(dir, 'fsck', '--strict', '--no-progress')).not.toThrow();
      // And the library works on: one more archive or restore, uninterrupted.
      const last = placeAtHead(dir) === 'active' ? 'archive' : 'restore';
      expect((await cli([last, 'big'], { cwd: dir })).code).toBe(0);
      expect(git(dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    },
  );
});
