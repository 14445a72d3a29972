import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Ledger, LedgerBackend } from '../../../src/ledger/ledger.js';
import { openLedger } from '../../../src/ledger/open-ledger.js';
import { archiveSkill, createSkill, patchSkill, restoreSkill, type ManageContext } from '../../../src/services/manage/index.js';
import { bumpUsage, flushUsage } from '../../../src/services/usage.js';
import { rejectsWith } from '../git-repo.js';
import { makeContext, setups, skillDoc } from './setups.js';
import type { BuildContext, Setup } from './setups.js';

/*
 * Each setup × create / patch / archive / restore / rollback / usage flush,
 * compared with what `git commit` does in a twin repository of the same
 * setup: the same author and committer as `git var`, a clean status, a clean
 * `git fsck --strict`, a clone that checks out, a signature where signing is
 * configured, the index version and the reflogs git keeps. Over both
 * backends; where the embedded one refuses, the refusal is asserted and
 * nothing may have been written.
 */

const backends: LedgerBackend[] = ['system-git', 'isomorphic-git'];
const savedEnv = { ...process.env };
const cleanups: Array<() => void> = [];

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  resetEnv();
});

function resetEnv(): void {
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
}

/** Builds the setup and points this process (the ledger, and every git it starts) at its isolated configuration. */
function build(setup: Setup): { ctx: BuildContext; dir: string; git: (...args: string[]) => string } {
  const ctx = makeContext();
  resetEnv();
  for (const key of Object.keys(process.env)) if (/^GIT_/.test(key)) delete process.env[key];
  const dir = setup.build(ctx);
  Object.assign(process.env, ctx.env);
  cleanups.push(() => {
    execFileSync('gpgconf', ['--kill', 'gpg-agent'], { env: { ...process.env, ...ctx.env }, stdio: 'ignore' });
    rmSync(ctx.root, { recursive: true, force: true });
  });
  return { ctx, dir, git: (...args) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
}

/** What `git commit` does in a twin of the setup: the facts every ledger commit must share with it. */
function twinFacts(setup: Setup): Facts {
  const { dir, git } = build(setup);
  mkdirSync(join(dir, 'skills', 'twin'), { recursive: true });
  writeFileSync(join(dir, 'skills', 'twin', 'SKILL.md'), skillDoc('twin'));
  git('add', 'skills/twin/SKILL.md');
  git('commit', '-q', '-m', 'twin');
  return readFacts(git, dir);
}

interface Facts {
  author: string;
  committer: string;
  signature: string;
  indexVersion: number;
  branchReflog: boolean;
}

function readFacts(git: (...args: string[]) => string, dir: string): Facts {
  const gitdir = git('rev-parse', '--absolute-git-dir').trim();
  const branch = git('symbolic-ref', 'HEAD').trim();
  const index = readFileSync(join(gitdir, 'index'));
  const exists = (() => {
    try {
      git('reflog', 'exists', branch);
      return true;
    } catch {
      return false;
    }
  })();
  void dir;
  return {
    author: git('log', '-1', '--format=%an <%ae>').trim(),
    committer: git('log', '-1', '--format=%cn <%ce>').trim(),
    signature: git('log', '-1', '--format=%G?').trim(),
    indexVersion: index.readUInt32BE(4),
    branchReflog: exists,
  };
}

const ident = (git: (...args: string[]) => string, variable: string) => git('var', variable).replace(/ \d+ [+-]\d{4}\n?$/, '');

describe.each(backends)('conformance matrix (%s)', (backend) => {
  describe.each(setups)('$name', (setup) => {
    if (backend === 'isomorphic-git' && setup.embeddedRefuses) {
      it(`refuses clearly (${setup.embeddedRefuses}) and writes nothing`, async () => {
        const { dir, git } = build(setup);
        const head = git('rev-parse', 'HEAD');
        const ledger = await openLedger(dir, { backend });
        try {
          const ctx = manageContext(dir, ledger);
          await rejectsWith(createSkill(ctx, { name: 'alpha', content: skillDoc('alpha') }), setup.embeddedRefuses!);
          expect(git('rev-parse', 'HEAD')).toBe(head);
          expect(git('status', '--porcelain')).toBe('');
        } finally {
          await ledger.close();
        }
      });
      return;
    }

    it('create, patch, archive, restore, rollback and usage flush write what git commit would', async () => {
      const twin = twinFacts(setup);
      const { dir, git } = build(setup);
      const ledger = await openLedger(dir, { backend });
      const ctx = manageContext(dir, ledger);
      const check = (step: string) => {
        const facts = readFacts(git, dir);
        expect(facts.author, step).toBe(ident(git, 'GIT_AUTHOR_IDENT'));
        expect(facts.committer, step).toBe(ident(git, 'GIT_COMMITTER_IDENT'));
        expect({ ...facts, author: twin.author, committer: twin.committer }, step).toEqual(twin);
        expect(git('status', '--porcelain'), step).toBe('');
        expect(() => git('fsck', '--strict', '--no-progress'), step).not.toThrow();
        if (setup.signed) expect(() => git('verify-commit', 'HEAD'), step).not.toThrow();
      };
      try {
        await createSkill(ctx, { name: 'alpha', content: skillDoc('alpha') });
        check('create');
        await patchSkill(ctx, { name: 'alpha', old: 'Steps.', new: 'Steps, patched.' });
        check('patch');
        await archiveSkill({ ...ctx, actor: 'user' }, { name: 'alpha' });
        check('archive');
        await restoreSkill({ ...ctx, actor: 'user' }, { name: 'alpha' });
        check('restore');
        const restored = git('rev-parse', 'HEAD').trim();
        await ledger.rollback({ commit: restored });
        check('rollback');
        await bumpUsage(dir, 'matrix', { skill: 'seed', kind: 'view', at: '2026-12-01T00:00:00Z' });
        const flushed = await flushUsage({
          repoDir: dir,
          ledger,
          writer: 'matrix',
          skillsDir: 'skills',
          now: new Date('2026-12-01T00:00:00Z'),
        });
        expect(flushed.commit).toBeDefined();
        check('usage flush');
        expect(git('log', '--format=%s').trim().split('\n')).toHaveLength(7);
        const clone = join(dir, '..', 'clone');
        const common = git('rev-parse', '--path-format=absolute', '--git-common-dir').trim();
        const branch = git('symbolic-ref', '--short', 'HEAD').trim();
        const plain = { ...process.env, GIT_DIR: undefined, GIT_WORK_TREE: undefined };
        execFileSync('git', ['clone', '-q', '-b', branch, common, clone], { stdio: 'ignore', env: plain });
        expect(execFileSync('git', ['status', '--porcelain'], { cwd: clone, encoding: 'utf8', env: plain })).toBe('');
        expect(readFileSync(join(clone, '.skillgarden', 'usage', 'matrix.json'), 'utf8')).toContain('seed');
      } finally {
        await ledger.close();
      }
    });
  });
});

function manageContext(dir: string, ledger: Ledger): ManageContext {
  return { repoDir: dir, ledger, skillsDir: 'skills', profile: 'portable', actor: 'agent', source: 'foreground' };
}
