import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { readHistoryIndex, type HistoryIndexOptions } from '../../src/ledger/history-index.js';
import { isomorphicGitWalker } from '../../src/ledger/history-walk-isomorphic.js';
import { systemGitWalker } from '../../src/ledger/history-walk-system.js';
import { HistoryRepo, skill, timeOf } from './history-repo.js';

const repos: HistoryRepo[] = [];
function newRepo(): HistoryRepo {
  const repo = new HistoryRepo();
  repos.push(repo);
  return repo;
}
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup();
});

const backends = ['system-git', 'isomorphic-git'] as const;
const cold = (repo: HistoryRepo, options: HistoryIndexOptions = {}) =>
  readHistoryIndex(repo.dir, { cache: false, ...options }).then((r) => r.index);

/** Each scenario is read by both walkers, which must agree; the repository is built once. */
async function read(repo: HistoryRepo, options: HistoryIndexOptions = {}) {
  const [system, iso] = await Promise.all(backends.map((backend) => cold(repo, { backend, ...options })));
  expect(iso).toEqual(system);
  return system as NonNullable<typeof system>;
}

describe('history index (both walkers)', () => {
  it('knows provenance from the creating commit', async () => {
    const repo = newRepo();
    repo
      .write('skills/bg/SKILL.md', skill('bg'))
      .ledger('skill(create): bg', { action: 'create', skills: ['bg'], actor: 'agent', source: 'background' });
    repo
      .write('skills/fg/SKILL.md', skill('fg'))
      .ledger('skill(create): fg', { action: 'create', skills: ['fg'], actor: 'agent', source: 'foreground' });
    repo.write('skills/by-hand/SKILL.md', skill('by-hand')).commit('Add a skill by hand\n');
    repo
      .write('skills/umbrella/SKILL.md', skill('umbrella'))
      .ledger('skill(merge): umbrella', { action: 'merge', skills: ['umbrella'], actor: 'curator', run: 'r' });
    const index = await read(repo);
    expect(Object.keys(index.skills)).toEqual(['bg', 'by-hand', 'fg', 'umbrella']);
    expect(index.skills.bg).toMatchObject({
      provenance: 'agent',
      folder: 'skills/bg',
      archived: false,
      created: { time: timeOf(0), actor: 'agent', source: 'background', action: 'create' },
    });
    expect(index.skills.fg?.provenance).toBe('user');
    expect(index.skills.umbrella).toMatchObject({ provenance: 'agent', created: { actor: 'curator', action: 'merge' } });
    expect(index.skills['by-hand']).toMatchObject({
      provenance: 'user',
      created: { time: timeOf(2), actor: 'user', source: null, action: null },
    });
  });

  it('makes an adopted skill curated and keeps its creation', async () => {
    const repo = newRepo();
    const created = repo.write('skills/a/SKILL.md', skill('a')).commit('hand-made\n');
    const adopted = repo.ledger('skill(adopt): a', { action: 'adopt', skills: ['a'] });
    const a = (await read(repo)).skills.a;
    expect(a).toMatchObject({ provenance: 'agent', created: { commit: created }, adopted: { commit: adopted, time: timeOf(1) } });
  });

  it('records patches, by the ledger or by plain git, and not pins or usage', async () => {
    const repo = newRepo();
    repo
      .write('skills/cat/x/SKILL.md', skill('x'))
      .ledger('skill(create): x', { action: 'create', skills: ['x'], actor: 'agent', source: 'background' });
    repo.write('skills/cat/x/references/r.md').ledger('skill(write-file): x', { action: 'write-file', skills: ['x'], actor: 'agent' });
    expect((await read(repo)).skills.x?.lastPatched?.time).toBe(timeOf(1));
    repo.write('skills/cat/x/SKILL.md', skill('x', 'Edited by hand.')).commit('tweak x\n');
    expect((await read(repo)).skills.x?.lastPatched?.time).toBe(timeOf(2));
    repo
      .write('skills/cat/x/SKILL.md', `${skill('x', 'Edited by hand.')}pinned\n`)
      .ledger('skill(pin): x', { action: 'pin', skills: ['x'] });
    repo.write('.skillgarden/usage/w.json', '{}').ledger('skill(usage): x', { action: 'usage', skills: ['x'], actor: 'agent' });
    const x = (await read(repo)).skills.x;
    expect(x?.lastPatched?.time).toBe(timeOf(2));
    expect(x?.pin).toMatchObject({ pinned: true, time: timeOf(3) });
    expect(x?.folder).toBe('skills/cat/x');
  });

  it('follows archive and restore without a new creation', async () => {
    const repo = newRepo();
    const created = repo.write('skills/a/SKILL.md', skill('a')).write('skills/a/scripts/run.sh').commit('add a\n');
    repo
      .remove('skills/a')
      .write('skills/.archive/a/SKILL.md', skill('a'))
      .write('skills/.archive/a/scripts/run.sh')
      .ledger('skill(archive): a', { action: 'archive', skills: ['a'], actor: 'curator', run: 'r1' });
    let a = (await read(repo)).skills.a;
    expect(a).toMatchObject({
      archived: true,
      folder: 'skills/.archive/a',
      lastArchived: { time: timeOf(1) },
      lastPatched: null,
      created: { commit: created },
    });
    repo.remove('skills/.archive/a').write('skills/a/SKILL.md', skill('a')).write('skills/a/scripts/run.sh').commit('restore a by hand\n');
    a = (await read(repo)).skills.a;
    expect(a).toMatchObject({
      archived: false,
      folder: 'skills/a',
      lastRestored: { time: timeOf(2) },
      lastPatched: null,
      created: { commit: created },
    });
  });

  it('starts a new life for a skill deleted and created again', async () => {
    const repo = newRepo();
    repo.write('skills/a/SKILL.md', skill('a')).commit('add a\n');
    repo.remove('skills/a').ledger('skill(delete): a', { action: 'delete', skills: ['a'] });
    expect((await read(repo)).skills).toEqual({});
    const again = repo
      .write('skills/a/SKILL.md', skill('a'))
      .ledger('skill(create): a', { action: 'create', skills: ['a'], actor: 'agent', source: 'background' });
    expect((await read(repo)).skills.a).toMatchObject({ provenance: 'agent', created: { commit: again } });
  });

  it('dates a library moved into its skills root (as anthropics/skills was) from when its content appeared', async () => {
    const repo = newRepo();
    const first = repo.write('document-skills/pdf/SKILL.md', skill('pdf')).write('document-skills/pdf/forms.md').commit('Add pdf\n');
    repo.write('document-skills/pdf/SKILL.md', skill('pdf', 'Better steps.')).commit('Improve pdf\n');
    repo.git('mv', 'document-skills', 'skills');
    repo.commit('Move the skills into skills/\n');
    const index = await read(repo);
    expect(index.skills.pdf).toMatchObject({ folder: 'skills/pdf', created: { commit: first, time: timeOf(0), actor: 'user' } });
    expect(index.outside).toEqual({});
  });

  it('follows a rename that keeps the SKILL.md, with the whole history', async () => {
    const repo = newRepo();
    const created = repo
      .write('skills/old/SKILL.md', skill('shared-name'))
      .ledger('skill(create): old', { action: 'create', skills: ['old'], actor: 'agent', source: 'background' });
    const patched = repo.write('skills/old/notes.md', 'more\n').commit('notes by hand\n');
    repo.remove('skills/old').write('skills/tools/new/SKILL.md', skill('shared-name')).write('skills/tools/new/notes.md', 'more\n');
    repo.commit('rename old to new\n');
    const index = await read(repo);
    expect(Object.keys(index.skills)).toEqual(['new']);
    expect(index.skills.new).toMatchObject({
      folder: 'skills/tools/new',
      provenance: 'agent',
      created: { commit: created, time: timeOf(0) },
      lastPatched: { commit: patched },
    });
  });

  it('follows a rename by hand that edits name: (git mv, then the name the spec wants), as git log -M does', async () => {
    const repo = newRepo();
    const body = [
      '## Steps',
      '1. `npm version minor`',
      '2. `git push --follow-tags`',
      '3. `npm publish`',
      'Check the changelog first.',
    ].join('\n');
    const created = repo
      .write('skills/release-cut/SKILL.md', skill('release-cut', body))
      .ledger('skill(create): release-cut', { action: 'create', skills: ['release-cut'], actor: 'agent', source: 'background' });
    repo.remove('skills/release-cut').write('skills/npm-release/SKILL.md', skill('npm-release', `${body}\nThen tag the docs.`));
    const renamed = repo.commit('rename release-cut to npm-release\n');
    // Unrelated skills swapped in one commit are not a rename: a deleted one and a new one with other lines.
    repo.remove('skills/npm-release').write('skills/pdf-fill/SKILL.md', skill('pdf-fill', 'Open the form.\nFill each field.'));
    const swapped = repo.commit('replace npm-release with pdf-fill\n');
    const index = await read(repo, { ref: renamed });
    expect(Object.keys(index.skills)).toEqual(['npm-release']);
    expect(index.skills['npm-release']).toMatchObject({
      provenance: 'agent',
      renamedFrom: ['release-cut'],
      created: { commit: created, actor: 'agent', source: 'background' },
    });
    const after = await read(repo, { ref: swapped });
    expect(after.skills['pdf-fill']).toMatchObject({ provenance: 'user', created: { commit: swapped } });
    expect(after.skills['pdf-fill']?.renamedFrom).toBeUndefined();
  });

  it('brings a deleted skill back with its history when a rollback or git revert re-adds it', async () => {
    const repo = newRepo();
    const created = repo
      .write('skills/a/SKILL.md', skill('a'))
      .ledger('skill(create): a', { action: 'create', skills: ['a'], actor: 'agent', source: 'background' });
    const deletion = repo.remove('skills/a').ledger('skill(delete): a', { action: 'delete', skills: ['a'], actor: 'user' });
    expect((await read(repo)).deleted.a?.created.commit).toBe(created);
    repo
      .write('skills/a/SKILL.md', skill('a'))
      .ledger('skill(rollback): a', { action: 'rollback', skills: ['a'], actor: 'user', reverts: [deletion] });
    expect((await read(repo)).skills.a).toMatchObject({ provenance: 'agent', created: { commit: created } });
    const again = repo.remove('skills/a').commit('rm a\n');
    repo.git('revert', '--no-edit', again);
    expect((await read(repo)).skills.a).toMatchObject({ provenance: 'agent', created: { commit: created } });
  });

  it('reads a squash-merge commit whose body ends with the trailer block', async () => {
    const repo = newRepo();
    repo.write('README.md').commit('init\n');
    repo
      .write('skills/deploy/SKILL.md', skill('deploy'))
      .commit(
        'New skill: deploy (#12)\n\n* skill(create): deploy\n\n* fix typo\n\nSkill-Action: create\nSkill-Name: deploy\nSkill-Actor: agent\nSkill-Source: background\n',
      );
    expect((await read(repo)).skills.deploy).toMatchObject({ provenance: 'agent', created: { time: timeOf(1) } });
  });

  it('credits the side branch, not the merge, for a skill created on a branch', async () => {
    const repo = newRepo();
    repo.write('skills/base/SKILL.md', skill('base')).commit('base\n');
    repo.git('checkout', '-q', '-b', 'proposal');
    const created = repo
      .write('skills/new/SKILL.md', skill('new'))
      .ledger('skill(create): new', { action: 'create', skills: ['new'], actor: 'agent', source: 'background' });
    repo.git('checkout', '-q', 'main');
    repo.write('skills/base/notes.md').commit('notes\n');
    repo.git('merge', '-q', '--no-ff', '--no-edit', 'proposal');
    const index = await read(repo);
    expect(index.skills.new).toMatchObject({ provenance: 'agent', created: { commit: created }, lastPatched: null });
    expect(index.skills.base?.lastPatched?.time).toBe(timeOf(2));
  });

  it('uses another skills root and ignores files outside it', async () => {
    const repo = newRepo();
    repo
      .write('lib/skills/a/SKILL.md', skill('a'))
      .write('skills/b/SKILL.md', skill('b'))
      .write('lib/skills/.hub/c/SKILL.md')
      .commit('both\n');
    expect(Object.keys((await read(repo, { skillsRoot: 'lib/skills/' })).skills)).toEqual(['a']);
  });

  it.each(backends)('gives an empty index for a repository without commits (%s)', async (backend) => {
    const result = await readHistoryIndex(newRepo().dir, { backend });
    expect(result.index).toMatchObject({ head: null, skills: {} });
  });
});

describe('history index walkers and cache', () => {
  let template: HistoryRepo | undefined;
  afterAll(() => template?.cleanup());
  function buildBusyRepo(): HistoryRepo {
    template ??= buildBusyTemplate();
    const repo = new HistoryRepo(template);
    repos.push(repo);
    return repo;
  }

  function buildBusyTemplate(): HistoryRepo {
    const repo = new HistoryRepo();
    repo.write('skills/a/SKILL.md', skill('a')).write('skills/tools/b/SKILL.md', skill('b')).commit('start\n');
    repo
      .write('skills/c/SKILL.md', skill('c'))
      .ledger('skill(create): c', { action: 'create', skills: ['c'], actor: 'agent', source: 'background' });
    repo.git('checkout', '-q', '-b', 'side');
    repo
      .write('skills/d/SKILL.md', skill('d'))
      .ledger('skill(create): d', { action: 'create', skills: ['d'], actor: 'agent', source: 'background' });
    repo.write('skills/a/references/x.md').ledger('skill(write-file): a', { action: 'write-file', skills: ['a'], actor: 'agent' });
    repo.git('checkout', '-q', 'main');
    repo
      .remove('skills/c')
      .write('skills/.archive/c/SKILL.md', skill('c'))
      .ledger('skill(archive): c', { action: 'archive', skills: ['c'], actor: 'curator' });
    repo.git('merge', '-q', '--no-ff', '--no-edit', 'side');
    repo.write('skills/tools/b/SKILL.md', skill('b', 'v2')).ledger('skill(patch): b', { action: 'patch', skills: ['b'], actor: 'agent' });
    repo.ledger('skill(pin): d', { action: 'pin', skills: ['d'] });
    return repo;
  }

  it('system git and isomorphic-git give identical indexes', async () => {
    const repo = buildBusyRepo();
    const [system, iso] = await Promise.all(backends.map((backend) => cold(repo, { backend })));
    expect(Object.keys(system?.skills ?? {})).toEqual(['a', 'b', 'c', 'd']);
    expect(iso).toEqual(system);
  });

  it('system git and isomorphic-git read the same commits and changes', async () => {
    const repo = buildBusyRepo();
    chmodSync(join(repo.dir, 'skills/tools/b/SKILL.md'), 0o755); // a mode change alone
    repo.remove('skills/d').write('skills/d', 'a file where a folder was\n').commit('file for folder\n');
    const head = repo.git('rev-parse', 'HEAD').trim();
    const range = { head, exclude: null, seen: new Set<string>(), skillsRoot: 'skills', shallow: new Set<string>() };
    const byOid = (a: { oid: string }, b: { oid: string }) => (a.oid < b.oid ? -1 : 1);
    const system = (await systemGitWalker(repo.dir, join(repo.dir, '.git')).readCommits(range)).sort(byOid);
    const iso = (await isomorphicGitWalker(join(repo.dir, '.git')).readCommits(range)).sort(byOid);
    const sortChanges = (cs: typeof system) =>
      cs.map((c) => ({ ...c, changes: [...c.changes].sort((x, y) => (x.path < y.path ? -1 : 1)) }));
    expect(system).toHaveLength(9);
    expect(system.find((c) => c.oid === head)?.changes).toEqual(
      expect.arrayContaining([
        { status: 'modified', path: 'skills/tools/b/SKILL.md' },
        { status: 'added', path: 'skills/d' },
        { status: 'deleted', path: 'skills/d/SKILL.md', blob: repo.git('rev-parse', 'HEAD~1:skills/d/SKILL.md').trim() },
      ]),
    );
    expect(sortChanges(iso)).toEqual(sortChanges(system));
  });

  it.each(backends)('updates incrementally to what a cold rebuild gives (%s)', async (backend) => {
    const repo = buildBusyRepo();
    expect((await readHistoryIndex(repo.dir, { backend })).update).toBe('rebuilt');
    expect((await readHistoryIndex(repo.dir, { backend })).update).toBe('unchanged');
    repo
      .write('skills/e/SKILL.md', skill('e'))
      .ledger('skill(create): e', { action: 'create', skills: ['e'], actor: 'agent', source: 'background' });
    repo.write('skills/a/SKILL.md', skill('a', 'v3')).commit('edit a\n');
    const next = await readHistoryIndex(repo.dir, { backend });
    expect(next).toMatchObject({ update: 'incremental', folded: 2 });
    expect(next.index).toEqual(await cold(repo, { backend }));
  });

  it("takes the other walker's cache as its own", async () => {
    const repo = buildBusyRepo();
    await readHistoryIndex(repo.dir, { backend: 'system-git' });
    repo.write('skills/f/SKILL.md', skill('f')).commit('f\n');
    const next = await readHistoryIndex(repo.dir, { backend: 'isomorphic-git' });
    expect(next).toMatchObject({ update: 'incremental', folded: 1 });
    expect(next.index).toEqual(await cold(repo, { backend: 'system-git' }));
  });

  it.each(
    backends.flatMap(
      (backend) =>
        [
          [backend, 'kept'],
          [backend, 'collected'],
        ] as const,
    ),
  )('rebuilds after a force-push rewrote the cached head away (%s, old head %s)', async (backend, old) => {
    const repo = buildBusyRepo();
    await readHistoryIndex(repo.dir, { backend });
    repo.git('reset', '-q', '--hard', 'HEAD~2');
    if (old === 'collected') {
      repo.git('reflog', 'expire', '--expire=now', '--all');
      repo.git('gc', '-q', '--prune=now');
    }
    repo.write('skills/g/SKILL.md', skill('g')).commit('g\n');
    const next = await readHistoryIndex(repo.dir, { backend });
    expect(next.update).toBe('rebuilt');
    expect(next.index).toEqual(await cold(repo, { backend }));
  });

  it.each(backends)("claims no provenance from before a shallow clone's cut, and rebuilds once deepened (%s)", async (backend) => {
    const origin = newRepo();
    origin
      .write('skills/old/SKILL.md', skill('old'))
      .ledger('skill(create): old', { action: 'create', skills: ['old'], actor: 'agent', source: 'background' });
    origin
      .write('skills/new/SKILL.md', skill('new'))
      .ledger('skill(create): new', { action: 'create', skills: ['new'], actor: 'agent', source: 'background' });
    const clone = newRepo();
    clone.git('fetch', '-q', '--depth=1', `file://${origin.dir}`, 'main');
    clone.git('reset', '-q', '--hard', 'FETCH_HEAD');
    const shallow = await readHistoryIndex(clone.dir, { backend });
    expect(shallow.index.shallow).toBe(true);
    expect(shallow.index.skills.old).toMatchObject({ provenance: 'user', created: { actor: 'user', action: null } });
    expect(shallow.index.skills.new?.provenance).toBe('user');
    clone.git('fetch', '-q', '--unshallow', `file://${origin.dir}`, 'main');
    const deep = await readHistoryIndex(clone.dir, { backend });
    expect(deep.update).toBe('rebuilt');
    expect(deep.index.shallow).toBe(false);
    expect(deep.index.skills.old?.provenance).toBe('agent');
  });

  it('rebuilds when the cache file is corrupt', async () => {
    const repo = buildBusyRepo();
    repo.write('.git/skillgarden/history-index.json', '{"version": 1, "index": ');
    const result = await readHistoryIndex(repo.dir);
    expect(result.update).toBe('rebuilt');
    expect((await readHistoryIndex(repo.dir)).update).toBe('unchanged');
  });
});
