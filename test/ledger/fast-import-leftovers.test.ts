import { spawn } from 'node:child_process';
import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDoctor } from '../../src/services/doctor.js';
import { git, repoWith } from '../helpers/repo.js';

const child = join(import.meta.dirname, 'fixtures', 'batch-child.ts');
const scratch = 'refs/skillgarden/fast-import';

/** Runs the child until its batch is built, then SIGKILLs it alone: its fast-import reads the end of its input. */
function addThenKill(dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    proc.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('go') && proc.kill('SIGKILL'));
    proc.on('error', reject);
    proc.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`child ended (${code}): ${stderr}`))));
  });
}

async function eventually(check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 50) {
    if (waited > 20_000) throw new Error('timed out');
    await new Promise((done) => setTimeout(done, 50));
  }
}

const hasRef = (dir: string, ref: string) => git(dir, 'for-each-ref', '--format=%(refname)', ref).trim() === ref;

describe('what a batch killed mid-way leaves (system git)', () => {
  it('doctor reports the scratch ref and fast-import keep files, and --fix removes them and nothing else', async () => {
    const dir = repoWith({ 'skills/a/SKILL.md': 'a\n' });
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    await addThenKill(dir);
    await eventually(() => hasRef(dir, scratch));
    expect(git(dir, 'log', '--format=%s', scratch).trim().split('\n').slice(0, 2)).toEqual(['unpublished 2', 'unpublished 1']);

    // fast-import killed between writing a pack and finishing leaves the pack's keep with its own words in it.
    git(dir, 'repack', '-a', '-d', '-q');
    const packs = join(dir, '.git', 'objects', 'pack');
    const pack = readdirSync(packs).find((name) => name.endsWith('.pack'))!;
    const stale = join(packs, pack.replace(/\.pack$/, '.keep'));
    const live = join(packs, 'pack-live.keep');
    const mine = join(packs, 'pack-mine.keep');
    writeFileSync(stale, 'fast-import');
    writeFileSync(live, 'fast-import');
    writeFileSync(mine, 'kept by hand\n');
    const longAgo = new Date(Date.now() - 10 * 60_000);
    for (const path of [stale, mine]) utimesSync(path, longAgo, longAgo);

    const report = await runDoctor(dir, { fix: false, skillsDir: 'skills' });
    expect(report.findings.map((f) => [f.kind, f.path])).toEqual([
      ['fast-import-leftover', scratch],
      ['fast-import-leftover', stale],
    ]);
    expect(hasRef(dir, scratch)).toBe(true);

    const fixed = await runDoctor(dir, { fix: true, skillsDir: 'skills' });
    expect(fixed.fixed).toHaveLength(2);
    expect(hasRef(dir, scratch)).toBe(false);
    expect([existsSync(stale), existsSync(live), existsSync(mine)]).toEqual([false, true, true]);
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    git(dir, 'fsck', '--strict', '--no-progress');
    expect((await runDoctor(dir, { fix: false, skillsDir: 'skills' })).findings).toEqual([]);
  });
});
