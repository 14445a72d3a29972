import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { historyCachePath, type HistoryCacheFile } from '../../src/ledger/history-cache.js';
import { readHistoryIndex } from '../../src/ledger/history-index.js';
import { readLog, type ReadLogOptions } from '../../src/ledger/log.js';
import { runDoctor } from '../../src/services/doctor.js';
import { HistoryRepo, skill } from './history-repo.js';

const repos: HistoryRepo[] = [];
afterAll(() => {
  for (const repo of repos) repo.cleanup();
});

/**
 * Two branches whose commits interleave in time, merged back: topological order lists the branch
 * before main's commits of the same hours; commit-date order alternates. Returns ids oldest first.
 */
function mergeHeavyRepo(): { repo: HistoryRepo; ids: Record<string, string> } {
  const repo = new HistoryRepo();
  repos.push(repo);
  const ids: Record<string, string> = {};
  ids.base = repo.write('skills/a/SKILL.md', skill('a')).ledger('skill(create): a', { action: 'create', skills: ['a'] });
  repo.git('branch', 'topic');
  for (let round = 1; round <= 2; round++) {
    repo.git('checkout', '-q', 'topic');
    ids[`topic${round}`] = repo.write('skills/a/SKILL.md', skill('a', `Topic ${round}.`)).commit(`Edit a on the branch (${round})\n`);
    repo.git('checkout', '-q', 'main');
    ids[`main${round}`] = repo
      .write(`skills/b${round}/SKILL.md`, skill(`b${round}`))
      .ledger(`skill(create): b${round}`, { action: 'create', skills: [`b${round}`] });
  }
  repo.git('merge', '-q', '--no-ff', '--no-commit', 'topic');
  ids.merge = repo.commit("Merge branch 'topic'\n");
  ids.plain = repo.write('README.md', 'no skill here\n').commit('Docs\n');
  return { repo, ids };
}

const shared = mergeHeavyRepo();

describe.each(['system-git', 'isomorphic-git'] as const)('log on merge-heavy history (%s)', (backend) => {
  it('lists newest first by commit date, as git log --date-order does', async () => {
    const { repo, ids } = shared;
    const dateOrder = repo.git('log', '--date-order', '--format=%H').trim().split('\n');
    const entries = await readLog(repo.dir, { backend, all: true });
    expect(entries.map((e) => e.commit)).toEqual(dateOrder);
    // Not the branch first: main's and the branch's commits alternate by the hour.
    const ledger = (await readLog(repo.dir, { backend })).map((e) => e.commit);
    expect(ledger).toEqual([ids.merge, ids.main2, ids.topic2, ids.main1, ids.topic1, ids.base]);
  });

  it.each<ReadLogOptions>([
    {},
    { skill: 'a' },
    { skill: 'b2' },
    { actor: 'user' },
    { action: 'create' },
    { limit: 2 },
    { skill: 'a', all: true },
  ])('reads from the cache what the plain walk reads (%o)', async (filter) => {
    const repo = new HistoryRepo(shared.repo);
    repos.push(repo);
    rmSync(historyCachePath(join(repo.dir, '.git')), { force: true });
    const plain = () => readLog(repo.dir, { backend, cache: false, ...filter });
    expect(await readLog(repo.dir, { backend, ...filter })).toEqual(await plain()); // cold: builds the cache
    expect(await readLog(repo.dir, { backend, ...filter })).toEqual(await plain()); // warm
    repo
      .remove('skills/b1')
      .write('skills/.archive/b1/SKILL.md', skill('b1'))
      .ledger('skill(archive): b1', { action: 'archive', skills: ['b1'] });
    repo.write('skills/a/notes.md', 'more\n').commit('Notes for a\n');
    expect((await readHistoryIndex(repo.dir, { backend })).update).toBe('incremental');
    expect(await readLog(repo.dir, { backend, ...filter })).toEqual(await plain());
  });
});

describe('doctor and the history cache', () => {
  function cachedRepo(): HistoryRepo {
    const repo = new HistoryRepo(shared.repo);
    repos.push(repo);
    return repo;
  }
  const cacheOf = (repo: HistoryRepo) => historyCachePath(join(repo.dir, '.git'));

  it('checks the cache without walking history: it passes with the oldest commit gone', async () => {
    const repo = cachedRepo();
    await readHistoryIndex(repo.dir, { backend: 'system-git' });
    const root = repo.git('rev-list', '--max-parents=0', 'HEAD').trim();
    rmSync(join(repo.dir, '.git', 'objects', root.slice(0, 2), root.slice(2)));
    // A walk would fail now, so the doctor's silence shows it did not walk.
    await expect(readHistoryIndex(repo.dir, { cache: false })).rejects.toThrow();
    expect((await runDoctor(repo.dir, { fix: false, skillsDir: 'skills' })).findings).toEqual([]);
  });

  it.each([
    ['misses a skill', (c: HistoryCacheFile) => delete c.index.skills.b2, /misses b2 \(skills\/b2\/SKILL\.md\)/],
    [
      'places a skill where it is not',
      (c: HistoryCacheFile) => ((c.index.skills.a as { folder: string }).folder = 'skills/elsewhere'),
      /places a in skills\/elsewhere, which holds no SKILL\.md/,
    ],
  ])('reports a cache that %s, and --fix drops it', async (_, tamper, message) => {
    const repo = cachedRepo();
    await readHistoryIndex(repo.dir);
    const cache = JSON.parse(readFileSync(cacheOf(repo), 'utf8')) as HistoryCacheFile;
    tamper(cache);
    writeFileSync(cacheOf(repo), JSON.stringify(cache));
    const report = await runDoctor(repo.dir, { fix: true, skillsDir: 'skills' });
    expect(report.findings).toMatchObject([{ kind: 'history-cache', fixable: true, message }]);
    expect((await readHistoryIndex(repo.dir)).update).toBe('rebuilt');
  });
});
