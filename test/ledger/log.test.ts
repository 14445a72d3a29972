import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readLog } from '../../src/ledger/log.js';
import { HistoryRepo, skill, timeOf } from './history-repo.js';

const repos: HistoryRepo[] = [];
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup();
});

function buildLedgerRepo(): { repo: HistoryRepo; ids: string[] } {
  const repo = new HistoryRepo();
  repos.push(repo);
  const ids = [
    repo.write('skills/a/SKILL.md', skill('a')).commit('Add a by hand\n\nNo trailers here.\n'),
    repo
      .write('skills/b/SKILL.md', skill('b'))
      .ledger('skill(create): b — new', { action: 'create', skills: ['b'], actor: 'agent', source: 'background' }),
    repo
      .remove('skills/a')
      .write('skills/.archive/a/SKILL.md', skill('a'))
      .ledger('skill(archive): a', { action: 'archive', skills: ['a'], actor: 'curator', run: 'run-1' }),
    repo.ledger('skill(pin): a, b', { action: 'pin', skills: ['a', 'b'], actor: 'user' }),
  ];
  return { repo, ids };
}

let shared: { repo: HistoryRepo; ids: string[] } | undefined;
afterAll(() => shared?.repo.cleanup());
/** One repository for the tests that only read it. */
function sharedLedgerRepo(): { repo: HistoryRepo; ids: string[] } {
  if (!shared) {
    shared = buildLedgerRepo();
    repos.splice(repos.indexOf(shared.repo), 1); // kept until afterAll, not cleaned after each test
  }
  return shared;
}

describe.each(['system-git', 'isomorphic-git'] as const)('readLog (%s)', (backend) => {
  it('reads every commit, newest first, with its trailers', async () => {
    const { repo, ids } = sharedLedgerRepo();
    const entries = await readLog(repo.dir, { backend });
    expect(entries.map((e) => e.commit)).toEqual([...ids].reverse());
    expect(entries[2]).toEqual({
      commit: ids[1],
      time: timeOf(1),
      action: 'create',
      skills: ['b'],
      actor: 'agent',
      source: 'background',
      run: null,
      subject: 'skill(create): b — new',
    });
    // No trailers, but it added skill a: found by path.
    expect(entries[3]).toMatchObject({ action: null, skills: ['a'], actor: 'user', source: null, run: null, subject: 'Add a by hand' });
  });

  it.each([
    [{ skill: 'a' }, [3, 2, 0]],
    [{ actor: 'user' as const }, [3, 0]],
    [{ action: 'create' as const }, [1]],
    [{ run: 'run-1' }, [2]],
    [{ skill: 'b', limit: 1 }, [3]],
    [{ limit: 2 }, [3, 2]],
    [{ skill: 'nothing' }, []],
  ])('filters by %j', async (filter, expected) => {
    const { repo, ids } = sharedLedgerRepo();
    const entries = await readLog(repo.dir, { backend, ...filter });
    expect(entries.map((e) => e.commit)).toEqual(expected.map((i) => ids[i]));
  });

  it('gives no entries for a repository without commits', async () => {
    const repo = new HistoryRepo();
    repos.push(repo);
    expect(await readLog(repo.dir, { backend })).toEqual([]);
  });
});

describe('readLog backends', () => {
  it('agree on a repository with a merge', async () => {
    const { repo } = buildLedgerRepo();
    repo.git('checkout', '-q', '-b', 'side');
    repo
      .write('skills/c/SKILL.md', skill('c'))
      .ledger('skill(create): c', { action: 'create', skills: ['c'], actor: 'agent', source: 'foreground' });
    repo.git('checkout', '-q', 'main');
    repo.write('x.txt').commit('x\n');
    repo.git('merge', '-q', '--no-ff', '--no-edit', 'side');
    const [system, iso] = await Promise.all([
      readLog(repo.dir, { backend: 'system-git' }),
      readLog(repo.dir, { backend: 'isomorphic-git' }),
    ]);
    // x.txt touches no skill: left out, unless every commit is asked for.
    expect(system.map((e) => e.subject)).not.toContain('x');
    expect(system).toHaveLength(6);
    expect(iso).toEqual(system);
    const all = await readLog(repo.dir, { backend: 'system-git', all: true });
    expect(all.map((e) => e.subject)).toContain('x');
    expect(all).toHaveLength(7);
  });
});
