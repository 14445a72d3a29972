import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { findUnsafePath } from '../../src/core/safe-path.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { fixedAuthor, makeRepo, rejectsWith } from './git-repo.js';

// Spawned git sees no configuration of this machine.
const env = { ...process.env, HOME: tmpdir(), GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const run = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

// Characters near every rule: dots, spaces, tildes, the Windows set, controls, HFS ignorables, letters of `.git`.
const alphabet = [...'.gGiItT~ 1aconulpxm:*?"<>|\\$', '\u0001', '\u001f', '\u007f', '\u200c', '\ufeff', 'é', '日', '😀'];
const component = fc.oneof(
  fc.string({ unit: fc.constantFrom(...alphabet), minLength: 1, maxLength: 8 }),
  fc.constantFrom('.git', 'git~1', '.gitmodules', 'CON', 'nul.txt', 'com1', '.GIT.', 'x'.repeat(230), 'notes.md', 'gitmod~1'),
);
const pathArb = fc.array(component, { minLength: 1, maxLength: 3 }).map((parts) => `skills/s/references/${parts.join('/')}`);

const made: Array<() => void> = [];
afterAll(() => made.forEach((cleanup) => cleanup()));

describe('safe paths, against git itself', () => {
  it('a path it accepts commits fsck-clean and clones; one it refuses is never written', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(pathArb, { minLength: 4, maxLength: 12 }), async (paths) => {
        const { dir, cleanup } = makeRepo('skillgarden-safe-path-');
        made.push(cleanup);
        const ledger = await openLedger(dir, { backend: 'isomorphic-git', author: fixedAuthor });
        try {
          // A path that is a prefix folder of another cannot be both a file and a folder.
          const accepted = paths.filter((p) => findUnsafePath(p) === undefined && !paths.some((q) => q.startsWith(`${p}/`)));
          for (const path of paths.filter((p) => findUnsafePath(p) !== undefined)) {
            await rejectsWith(
              ledger.commit({ message: 'bad', author: fixedAuthor, changes: [{ path, content: 'x\n' }] }),
              'ledger/bad-path',
            );
          }
          const changes = [{ path: 'skills/s/SKILL.md', content: 's\n' }, ...accepted.map((path) => ({ path, content: `${path}\n` }))];
          await ledger.commit({ message: 'paths', author: fixedAuthor, changes });
          run(dir, 'fsck', '--strict', '--no-progress');
          const clone = mkdtempSync(join(tmpdir(), 'skillgarden-safe-clone-'));
          made.push(() => rmSync(clone, { recursive: true, force: true }));
          run(tmpdir(), '-c', 'core.protectNTFS=true', '-c', 'core.protectHFS=true', 'clone', '-q', dir, clone);
          const tracked = run(clone, 'ls-files', '-z').split('\0').filter(Boolean);
          expect(tracked.sort()).toEqual(changes.map((c) => c.path).sort());
          expect(run(clone, 'status', '--porcelain')).toBe('');
        } finally {
          await ledger.close();
          cleanup();
        }
      }),
      { numRuns: 12, seed: 13 },
    );
  });
});
