import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordPath } from '../../../src/core/config/state-files.js';
import { openLedger } from '../../../src/ledger/open-ledger.js';
import { runDoctor } from '../../../src/services/doctor.js';
import { readState } from '../../../src/services/curator/read-library.js';
import { runCurator } from '../../../src/services/curator/run-curator.js';
import { git, repoWith } from '../../helpers/repo.js';
import { createAgentSkills } from '../../helpers/agent-skills.js';
import { writeTree } from '../../helpers/tmp.js';

const day = 86_400_000;
const now = new Date('2026-11-30T00:00:00Z');
const ago = (days: number) => new Date(now.getTime() - days * day).toISOString();

/** Agent skills: two due stale (45 days unused), one already stale, one fresh; the state as version 1 left it. */
async function oldLayoutLibrary(): Promise<string> {
  const dir = repoWith({ 'README.md': 'notes\n' });
  for (const [name, days] of [
    ['old-a', 45],
    ['old-c', 45],
    ['marked', 45],
    ['fresh', 1],
  ] as const) {
    const content = `---\nname: ${name}\ndescription: Does ${name}. Use when ${name}.\n---\n# ${name}\n\nSteps.\n`;
    await createAgentSkills(dir, { [name]: content }, new Date(now.getTime() - days * day));
  }
  const legacy = {
    version: 1,
    last_run_at: ago(8),
    last_run_id: 'r0',
    skills: { marked: { state: 'stale', since: ago(5) }, fresh: { seeded_at: ago(1) }, gone: { state: 'stale', since: ago(3) } },
    rejected_proposals: ['fp-1'],
  };
  writeTree(dir, { '.skillgarden/state.json': `${JSON.stringify(legacy, null, 2)}\n` });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'the state as a version 1 curator left it');
  return dir;
}

const files = (dir: string, commit: string) => git(dir, 'show', '--name-only', '--format=', commit).trim().split('\n');
const tree = (dir: string, rev = 'HEAD') => git(dir, 'ls-tree', '-r', rev);

describe("the curator's state, a file per skill", () => {
  it('reads a version 1 library, migrates it in a commit of its own, and each transition commit carries its skill alone', async () => {
    const dir = await oldLayoutLibrary();
    const before = tree(dir);
    expect(readState(dir).skills.marked).toEqual({ state: 'stale', since: ago(5) });

    const { report } = await runCurator({ repoDir: dir, now, backend: 'system-git' });
    expect(report.status).toBe('completed');
    expect(report.transitions.map((t) => `${t.skill}:${t.to}`)).toEqual(['old-a:stale', 'old-c:stale']);
    expect(report.forgotten).toEqual(['gone']);
    const commits = git(dir, 'rev-list', '--reverse', `HEAD~4..HEAD`).trim().split('\n');
    expect(commits).toHaveLength(4);
    // The migration: state.json without records, every record in its own file, nothing lost.
    expect(files(dir, commits[0]!)).toEqual([
      '.skillgarden/state.json',
      ...[recordPath('fresh'), recordPath('gone'), recordPath('marked')].sort(),
    ]);
    expect(report.transitions.map((t) => t.commit)).toEqual(commits.slice(1, 3));
    expect(files(dir, commits[1]!)).toEqual([recordPath('old-a')]);
    expect(files(dir, commits[2]!)).toEqual([recordPath('old-c')]);
    expect(files(dir, commits[3]!)).toEqual(['.skillgarden/state.json', recordPath('gone')]);
    const after = {
      version: 2,
      last_run_at: now.toISOString(),
      last_run_id: report.run_id,
      skills: {
        fresh: { seeded_at: ago(1) },
        marked: { state: 'stale', since: ago(5) },
        'old-a': { state: 'stale', since: now.toISOString() },
        'old-c': { state: 'stale', since: now.toISOString() },
      },
      rejected_proposals: ['fp-1'],
    };
    expect(readState(dir)).toEqual(after);
    expect(git(dir, 'status', '--porcelain')).toBe('');

    // One transition rolled back: that skill's record alone, exactly as it was.
    const ledger = await openLedger(dir, { now: () => now });
    try {
      const undone = await ledger.rollback({ commit: commits[1]! });
      expect(undone).toMatchObject({ status: 'reverted', files: [recordPath('old-a')] });
      const { 'old-a': _gone, ...rest } = after.skills;
      expect(readState(dir)).toEqual({ ...after, skills: rest });
      // The whole run rolled back (that rollback first): the version 1 file, byte for byte.
      await ledger.rollback({ commit: 'HEAD' });
      await ledger.rollback({ run: report.run_id });
    } finally {
      await ledger.close();
    }
    expect(tree(dir)).toBe(before);
    expect(readState(dir).version).toBe(1);
  });

  it('a second run reads the new layout and writes no migration', async () => {
    const dir = await oldLayoutLibrary();
    await runCurator({ repoDir: dir, now, backend: 'system-git' });
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    const later = new Date(now.getTime() + 35 * day);
    const { report } = await runCurator({ repoDir: dir, now: later, backend: 'isomorphic-git' });
    expect(report.status).toBe('completed');
    expect(report.transitions.map((t) => `${t.skill}:${t.to}`)).toEqual(['fresh:stale']);
    expect(files(dir, report.transitions[0]!.commit!)).toEqual([recordPath('fresh')]);
    expect(readState(dir).skills.fresh).toEqual({ state: 'stale', since: later.toISOString(), seeded_at: ago(1) });
    const subjects = git(dir, 'log', '--format=%s', `${head}..HEAD`).trim().split('\n');
    expect(subjects.some((s) => s.includes('moved to a file per skill'))).toBe(false);
    expect(readState(dir).last_run_at).toBe(later.toISOString());
    expect(readState(dir).skills['old-a']).toEqual({ state: 'stale', since: now.toISOString() });
  });

  it('a corrupt record file is named with its line and column, in doctor and in the curator; a stray name too', async () => {
    const dir = await oldLayoutLibrary();
    await runCurator({ repoDir: dir, now, backend: 'system-git' });
    writeFileSync(join(dir, recordPath('marked')), '{\n  "state": "stale",\n  oops\n}\n');
    writeFileSync(join(dir, recordPath('marked').replace('marked.json', 'Marked.json')), '{}\n');
    const report = await runDoctor(dir, { fix: false, skillsDir: 'skills' });
    const corrupt = report.findings.filter((f) => f.kind === 'corrupt-state');
    expect(corrupt).toEqual([
      expect.objectContaining({
        path: join(dir, recordPath('marked').replace('marked.json', 'Marked.json')),
        message: expect.stringContaining('not where a record goes'),
      }),
      expect.objectContaining({
        path: join(dir, recordPath('marked')),
        line: 3,
        message: expect.stringContaining('line 3, column 3'),
      }),
    ]);
    expect(() => readState(dir)).toThrow(/\.skillgarden\/state\/[0-9a-f]{2}\/Marked\.json: not where a record goes/);
    await expect(runCurator({ repoDir: dir, now, dryRun: true })).rejects.toMatchObject({ code: 'state/invalid' });
  });
});
