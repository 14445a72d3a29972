import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCommitMessage } from '../../src/core/ledger/trailers.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { runCurate } from '../../src/services/curator/curate.js';
import { writeProposals } from '../../src/services/proposals/index.js';
import { createSkill, patchSkill, type ManageContext } from '../../src/services/manage/index.js';
import { syncRepository } from '../../src/services/sync.js';
import { bumpUsage, flushUsage, showUsage } from '../../src/services/usage.js';
import { git } from '../helpers/repo.js';
import { skillText, tempDir, writeTree } from '../helpers/tmp.js';

/*
 * Issue #30 item 6: many machines share one library through one bare remote. Each clone has agents writing
 * (create and patch through the manage service), flushes its usage and runs `sync`, all at once, while a
 * curator run on one of them pushes its proposal branch. Afterwards every acknowledged write is in the remote's
 * history, usage sums are exact, and no file under `.skillgarden/` holds a merge conflict.
 */
const machines = ['m0', 'm1', 'm2'];
const rounds = 3;
const now = new Date('2030-01-01T00:00:00Z');
/** Far apart, so that patches of distinct lines merge as git merges them when `sync` replays a machine's commits. */
const sharedBody = machines.map((m) => `Step for ${m}: todo.\n\nfiller one\n\nfiller two\n\nfiller three\n`).join('\n');

function fleet(): { remote: string; clones: string[] } {
  const remote = join(tempDir('skillgarden-fleet-remote-'), 'library.git');
  git(tempDir(), 'init', '-q', '--bare', '-b', 'main', remote);
  const seed = tempDir('skillgarden-fleet-seed-');
  git(seed, 'init', '-q', '-b', 'main');
  configure(seed, 'seed');
  writeTree(seed, { 'skills/shared/SKILL.md': skillText('shared', '', sharedBody) });
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'initial library');
  // An agent's skill unused for years: the curator proposes to archive it.
  writeTree(seed, { 'skills/forgotten/SKILL.md': skillText('forgotten') });
  git(seed, 'add', '-A');
  const trailers = {
    action: 'create' as const,
    skills: ['forgotten'],
    actor: 'agent' as const,
    source: 'background' as const,
    reverts: [],
  };
  git(seed, 'commit', '-q', '--date=2020-01-01T00:00:00Z', '-m', buildCommitMessage({ subject: 'skill(create): forgotten', trailers }));
  git(seed, 'push', '-q', `file://${remote}`, 'main');
  const clones = machines.map((name) => {
    const dir = join(tempDir(`skillgarden-fleet-${name}-`), 'lib');
    git(tempDir(), 'clone', '-q', `file://${remote}`, dir);
    configure(dir, name);
    return dir;
  });
  return { remote, clones };
}

function configure(dir: string, name: string): void {
  git(dir, 'config', 'user.name', `Agent ${name}`);
  git(dir, 'config', 'user.email', `${name}@example.com`);
  git(dir, 'config', 'gc.auto', '0');
}

/** Files under `.skillgarden/` holding conflict markers (git grep exits 1 when none does). */
function conflictMarkers(dir: string): string {
  try {
    return git(dir, 'grep', '-l', '-e', '^<<<<<<<', '-e', '^>>>>>>>', '--', '.skillgarden');
  } catch {
    return '';
  }
}

interface Acknowledged {
  created: string[];
  patched: string[];
  uses: Map<string, number>;
  syncAttempts: number[];
}

/** One machine: each round an agent creates a skill and patches its own line of the shared one, usage is bumped and flushed, then `sync`. */
async function runMachine(name: string, dir: string, ack: Acknowledged): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    const ledger = await openLedger(dir, { backend: 'system-git' });
    try {
      const ctx: ManageContext = { repoDir: dir, ledger, skillsDir: 'skills', profile: 'portable', actor: 'agent', source: 'background' };
      const skill = `${name}-skill-${round}`;
      await createSkill(ctx, { name: skill, content: skillText(skill, '', `Written by ${name} in round ${round}.\n`) });
      ack.created.push(skill);
      const old = round === 0 ? `Step for ${name}: todo.` : `Step for ${name}: done in round ${round - 1}.`;
      const text = `Step for ${name}: done in round ${round}.`;
      await patchSkill(ctx, { name: 'shared', old, new: text });
      ack.patched.push(text);
      for (const used of ['shared', skill]) {
        for (let i = 0; i <= round; i++) await bumpUsage(dir, name, { skill: used, kind: 'use', at: now.toISOString() });
        ack.uses.set(used, (ack.uses.get(used) ?? 0) + round + 1);
      }
      const flushed = await flushUsage({ repoDir: dir, ledger, writer: name, skillsDir: 'skills', now });
      expect(flushed.commit).toBeDefined();
    } finally {
      await ledger.close();
    }
    ack.syncAttempts.push((await syncRepository({ repoDir: dir, maxAttempts: 50 })).attempts);
  }
}

/** The curator on the first machine: its lifecycle proposal on `skillgarden/lifecycle`, pushed while the others write. */
async function runCuratorAndPush(dir: string): Promise<string> {
  const run = await runCurate({ repoDir: dir, now, propose: true });
  expect(run.report.status).toBe('completed');
  await writeProposals(dir, run.proposals, { now, withdraw: run.withdraw });
  git(dir, 'push', '-q', 'origin', 'skillgarden/lifecycle');
  return git(dir, 'rev-parse', 'skillgarden/lifecycle').trim();
}

describe('a fleet: several clones writing, flushing usage and syncing through one remote while the curator proposes', () => {
  it('loses nothing, sums usage exactly, and leaves no merge conflict in .skillgarden/', { timeout: 600_000 }, async () => {
    const { remote, clones } = fleet();
    const ack: Acknowledged = { created: [], patched: [], uses: new Map(), syncAttempts: [] };
    const started = performance.now();
    const [proposal] = await Promise.all([runCuratorAndPush(clones[0]!), ...machines.map((name, i) => runMachine(name, clones[i]!, ack))]);
    // A last sync everywhere: the remote then holds every machine's commits.
    for (const dir of clones) await syncRepository({ repoDir: dir, maxAttempts: 50 });
    const elapsed = performance.now() - started;

    const check = tempDir('skillgarden-fleet-check-');
    git(tempDir(), 'clone', '-q', `file://${remote}`, join(check, 'lib'));
    const lib = join(check, 'lib');
    const tracked = git(lib, 'ls-files').trim().split('\n');
    for (const skill of ack.created) expect(tracked).toContain(`skills/${skill}/SKILL.md`);
    const shared = git(lib, 'show', 'HEAD:skills/shared/SKILL.md');
    for (const name of machines) expect(shared).toContain(`Step for ${name}: done in round ${rounds - 1}.`);
    expect(ack.patched).toHaveLength(machines.length * rounds);
    // Every acknowledged write is a commit of the remote's history (replayed by sync, so found by its subject).
    const subjects = git(lib, 'log', '--format=%s', 'main');
    expect(subjects.match(/^skill\(create\):/gm)?.length).toBe(machines.length * rounds + 1);
    expect(subjects.match(/^skill\(patch\):/gm)?.length).toBe(machines.length * rounds);
    expect(subjects.match(/^skill\(usage\):/gm)?.length).toBe(machines.length * rounds);

    const totals = showUsage(lib, { skillsDir: 'skills', now }).totals;
    for (const [skill, uses] of ack.uses) expect(totals[skill]?.use_count, skill).toBe(uses);
    expect(tracked.filter((p) => p.startsWith('.skillgarden/usage/')).sort()).toEqual(machines.map((m) => `.skillgarden/usage/${m}.json`));
    expect(conflictMarkers(lib)).toBe('');

    expect(git(lib, 'ls-remote', 'origin', 'refs/heads/skillgarden/lifecycle').split('\t')[0]).toBe(proposal);
    expect(git(lib, 'ls-tree', '-r', '--name-only', proposal, 'skills/.archive')).toBe('skills/.archive/forgotten/SKILL.md\n');
    git(lib, 'fsck', '--strict', '--no-progress');
    console.log(
      `fleet: ${machines.length} clones × ${rounds} rounds (create, patch, usage flush, sync) beside a curator proposal: ${Math.round(elapsed)} ms; ` +
        `sync attempts ${ack.syncAttempts.join(',')}; ${subjects.trim().split('\n').length} commits on main`,
    );
  });
});
