import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCommitMessage } from '../../src/core/ledger/trailers.js';
import type { CommitOptions, Ledger, LedgerBackend } from '../../src/ledger/ledger.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { repoWith } from '../helpers/repo.js';
import { fixedAuthor, git, rejectsWith } from './git-repo.js';

/*
 * A batch of commits (a curator run) must be exactly the chain the same commits made one by one
 * would be: same ids (so same trees, messages, trailers and parents), and a repository git finds
 * clean. Over both backends, with few commits (loose objects) and many (one pack).
 */

describe('the fast path (git fast-import) and the plain one (the object store)', () => {
  it('build the same commits, one by one and as a batch', async () => {
    const first = library(40);
    const second = join(first, '..', `${first.split('/').at(-1)}-plain`);
    cpSync(first, second, { recursive: true });
    const ids: string[][] = [];
    for (const [dir, backend] of [
      [first, 'system-git'],
      [second, 'isomorphic-git'],
    ] as const) {
      const ledger = await open(dir, backend);
      const requests = await runCommits(ledger, 12);
      const one = [];
      for (const request of requests.slice(0, 4)) one.push((await ledger.commit(request)).commit);
      const batch = ledger.beginBatch();
      for (const request of await runCommits(ledger, 12)) if (batch.size < 8) await batch.add(request).catch(() => undefined);
      ids.push([...one, ...(await batch.publish()).commits]);
    }
    expect(ids[0]!.length).toBeGreaterThan(6);
    expect(ids[0]).toEqual(ids[1]);
    expect(git(first, 'status', '--porcelain')).toBe('');
    git(first, 'fsck', '--strict', '--no-progress');
  });
});

const backends: LedgerBackend[] = ['system-git', 'isomorphic-git'];
const ledgers: Ledger[] = [];
afterEach(async () => {
  for (const ledger of ledgers.splice(0)) await ledger.close();
});

async function open(dir: string, backend: LedgerBackend): Promise<Ledger> {
  const ledger = await openLedger(dir, { backend, author: fixedAuthor, now: () => new Date(fixedAuthor.timestamp! * 1000) });
  ledgers.push(ledger);
  return ledger;
}

function library(skills: number): string {
  const files: Record<string, string> = { '.skillgarden/state.json': '{}\n' };
  for (let i = 0; i < skills; i += 1) {
    files[`skills/s-${i}/SKILL.md`] = `---\nname: s-${i}\ndescription: Skill ${i}.\n---\nSteps ${i}.\n`;
    if (i % 3 === 0) files[`skills/s-${i}/references/notes.md`] = `notes ${i}\n`;
  }
  return repoWith(files);
}

/** What a run writes: every third skill archived (its package moved), the others marked stale; state.json each time. */
async function runCommits(ledger: Ledger, count: number): Promise<CommitOptions[]> {
  const state: Record<string, string> = {};
  const commits: CommitOptions[] = [];
  let stateOid: string | undefined = (await ledger.listFiles('.skillgarden'))[0]!.oid;
  for (let i = 0; i < count; i += 1) {
    const name = `s-${i}`;
    const changes: CommitOptions['changes'][number][] = [];
    if (i % 3 === 0) {
      for (const file of await ledger.listFiles(`skills/${name}`)) {
        changes.push({ path: file.path, content: null, expected: file.oid });
        changes.push({
          path: file.path.replace('skills/', 'skills/.archive/'),
          content: (await ledger.readFile(file.path))!,
          expected: null,
        });
      }
    } else state[name] = 'stale';
    changes.push({
      path: '.skillgarden/state.json',
      content: `${JSON.stringify(state, null, 2)}\n`,
      ...(stateOid ? { expected: stateOid } : {}),
    });
    stateOid = undefined;
    const action = i % 3 === 0 ? 'archive' : 'mark-stale';
    const message = buildCommitMessage({
      subject: `skill(${action}): ${name}`,
      trailers: { action, skills: [name], actor: 'curator', run: 'run-1', reverts: [] },
    });
    commits.push({ message, changes, author: fixedAuthor });
  }
  return commits;
}

function worktreeFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(dir, folder), { withFileTypes: true })) {
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      if (path === '.git') continue;
      if (entry.isDirectory()) walk(path);
      else out[path] = readFileSync(join(dir, path), 'utf8');
    }
  };
  walk('');
  return out;
}

const packs = (dir: string) => readdirSync(join(dir, '.git/objects/pack')).filter((n) => n.endsWith('.idx'));

describe.each(backends)('a batch of commits (%s)', (backend) => {
  it.each([
    ['few commits', 6],
    ['many commits', 150],
  ])('equals the same commits made one by one: %s', async (_label, count) => {
    const sequential = library(count);
    const batched = join(sequential, '..', `${sequential.split('/').at(-1)}-batch`);
    cpSync(sequential, batched, { recursive: true });
    const one = await open(sequential, backend);
    const requests = await runCommits(one, count);
    const expected: string[] = [];
    for (const request of requests) expected.push((await one.commit(request)).commit);

    const initialTree = git(batched, 'rev-parse', 'HEAD^{tree}').trim();
    const packsBefore = packs(batched).length;
    const ledger = await open(batched, backend);
    const batch = ledger.beginBatch();
    for (const request of await runCommits(ledger, count)) await batch.add(request);
    expect(git(batched, 'rev-parse', 'HEAD').trim()).not.toBe(expected.at(-1));
    const { commits } = await batch.publish();

    expect(commits).toEqual(expected);
    expect(git(batched, 'rev-parse', 'HEAD').trim()).toBe(expected.at(-1));
    expect(git(batched, 'status', '--porcelain')).toBe('');
    git(batched, 'fsck', '--strict', '--no-progress');
    expect(worktreeFiles(batched)).toEqual(worktreeFiles(sequential));
    expect(git(batched, 'log', '--format=%B', '-1')).toContain('Curator-Run: run-1');
    // The system git's batch is one fast-import checkpoint: one pack, however few its objects; the store writes loose objects.
    expect(packs(batched).length - packsBefore).toBe(backend === 'system-git' ? 1 : 0);
    // One move of the branch: one reflog entry for the whole chain.
    expect(git(batched, 'reflog', 'show', '--format=%H', 'main').trim().split('\n')).toHaveLength(2);

    const undone = await ledger.rollback({ run: 'run-1' });
    expect(undone.status).toBe('reverted');
    expect(git(batched, 'rev-parse', 'HEAD^{tree}').trim()).toBe(initialTree);
    expect(git(batched, 'status', '--porcelain')).toBe('');
  });

  it('goes on past a refused commit, and builds its chain again when the branch moved meanwhile', async () => {
    const dir = library(4);
    const ledger = await open(dir, backend);
    const batch = ledger.beginBatch();
    const requests = await runCommits(ledger, 3);
    await batch.add(requests[0]!);
    await rejectsWith(
      batch.add({ message: 'stale read', changes: [{ path: 'skills/s-3/SKILL.md', content: 'x', expected: 'f'.repeat(40) }] }),
      'ledger/conflict',
    );
    await rejectsWith(batch.add({ message: 'bad path', changes: [{ path: 'skills/.git/config', content: 'x' }] }), 'ledger/bad-path');
    await batch.add(requests[1]!);
    // Someone commits with plain git before the batch is published.
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'a person was here');
    const theirs = git(dir, 'rev-parse', 'HEAD').trim();
    const { commits, attempts } = await batch.publish();
    expect(commits).toHaveLength(2);
    expect(attempts).toBe(2);
    expect(git(dir, 'rev-list', '--count', `${theirs}..HEAD`).trim()).toBe('2');
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(commits[1]);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    git(dir, 'fsck', '--strict', '--no-progress');
  });

  it('refuses as a whole when another writer changed a file of the chain, and writes nothing', async () => {
    const dir = library(2);
    const ledger = await open(dir, backend);
    const batch = ledger.beginBatch();
    for (const request of await runCommits(ledger, 2)) await batch.add(request);
    const before = git(dir, 'rev-parse', 'HEAD').trim();
    git(dir, 'rm', '-q', 'skills/s-0/SKILL.md');
    git(dir, 'commit', '-q', '-m', 'a person removed s-0');
    const theirs = git(dir, 'rev-parse', 'HEAD').trim();
    expect(theirs).not.toBe(before);
    await rejectsWith(batch.publish(), 'ledger/conflict');
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(theirs);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('refuses to overwrite an uncommitted edit of a touched file, naming it, and moves nothing', async () => {
    const dir = library(3);
    const ledger = await open(dir, backend);
    const batch = ledger.beginBatch();
    for (const request of await runCommits(ledger, 2)) await batch.add(request);
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    writeFileSync(join(dir, 'skills/s-0/SKILL.md'), 'a person is editing this\n');
    const data = await rejectsWith(batch.publish(), 'ledger/dirty');
    expect(data.paths).toEqual(['skills/s-0/SKILL.md']);
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(readFileSync(join(dir, 'skills/s-0/SKILL.md'), 'utf8')).toBe('a person is editing this\n');
  });
});

describe.each(backends)('the tip tree a ledger keeps between commits (%s)', (backend) => {
  /*
   * A long-lived ledger starts each commit from the tree it built last (write-batch.ts, TipTreeCache),
   * but only while the branch still points at that commit. The same steps run on a twin whose every
   * ledger commit is made by a freshly opened ledger (nothing kept) must give the same commits.
   */
  type Step = { ledger: string } | { git: string } | { reset: string };
  const steps: Step[] = [
    { ledger: 'skills/s-1/SKILL.md' },
    { ledger: 'skills/s-2/references/new.md' },
    { git: 'skills/s-0/SKILL.md' },
    { ledger: 'skills/s-0/references/notes.md' },
    { reset: 'HEAD~2' },
    { ledger: 'skills/s-3/SKILL.md' },
    { ledger: 'skills/s-1/SKILL.md' },
  ];

  it('equals fresh ledgers, when other writers move the branch forward or back in between', async () => {
    const kept = library(4);
    const fresh = join(kept, '..', `${kept.split('/').at(-1)}-fresh`);
    cpSync(kept, fresh, { recursive: true });
    const long = await open(kept, backend);
    for (const [i, step] of steps.entries()) {
      for (const dir of [kept, fresh]) {
        if ('git' in step) {
          writeFileSync(join(dir, step.git), `a person's edit ${i}\n`);
          git(dir, 'commit', '-q', '-am', `person ${i}`);
        } else if ('reset' in step) {
          git(dir, 'reset', '-q', '--hard', step.reset);
        } else {
          const ledger = dir === kept ? long : await open(dir, backend);
          await ledger.commit({ message: `step ${i}`, changes: [{ path: step.ledger, content: `step ${i}\n` }], author: fixedAuthor });
        }
      }
      expect(git(kept, 'rev-parse', 'HEAD').trim()).toBe(git(fresh, 'rev-parse', 'HEAD').trim());
    }
    expect(git(kept, 'status', '--porcelain')).toBe('');
    git(kept, 'fsck', '--strict', '--no-progress');
    expect(worktreeFiles(kept)).toEqual(worktreeFiles(fresh));
  });
});

describe.each(backends)('core.ignorecase (%s)', (backend) => {
  it('refuses a new path that differs only in case from a tracked one, naming it; the tracked spelling is written', async () => {
    const dir = library(2);
    git(dir, 'config', 'core.ignorecase', 'true');
    const ledger = await open(dir, backend);
    const data = await rejectsWith(
      ledger.commit({ message: 'twin', changes: [{ path: 'skills/S-1/references/new.md', content: 'x\n' }] }),
      'ledger/bad-path',
    );
    expect(String(data.reason)).toContain('skills/s-1');
    await rejectsWith(ledger.commit({ message: 'twin', changes: [{ path: 'skills/s-1/skill.md', content: 'x\n' }] }), 'ledger/bad-path');
    expect(git(dir, 'rev-list', '--count', 'HEAD').trim()).toBe('1');
    await ledger.commit({ message: 'right', changes: [{ path: 'skills/s-1/references/new.md', content: 'x\n' }] });
    expect(git(dir, 'status', '--porcelain')).toBe('');
    git(dir, 'fsck', '--strict', '--no-progress');
  });

  it('without core.ignorecase, both spellings are two files, as git keeps them', async () => {
    const dir = library(2);
    git(dir, 'config', 'core.ignorecase', 'false');
    const ledger = await open(dir, backend);
    await ledger.commit({ message: 'twin', changes: [{ path: 'skills/s-1/skill.md', content: 'x\n' }] });
    expect(git(dir, 'ls-files', 'skills/s-1').trim().split('\n')).toEqual(['skills/s-1/SKILL.md', 'skills/s-1/skill.md']);
  });
});
