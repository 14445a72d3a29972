import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readState } from '../../src/services/curator/read-library.js';
import { cli } from '../helpers/cli.js';
import { git, repoWith } from '../helpers/repo.js';
import { skillText, writeTree } from '../helpers/tmp.js';

const day = 86_400_000;
const now = new Date('2026-11-30T00:00:00Z');
const ago = (days: number) => new Date(now.getTime() - days * day).toISOString().replace(/\.000Z$/, 'Z');

/** Creates a skill the way an agent does in the background, at a given time. */
async function agentCreates(dir: string, name: string, daysAgo: number, extra = '') {
  writeFileSync(join(dir, 'draft.md'), skillText(name, extra));
  const run = await cli(
    ['manage', 'create', name, '--content', 'draft.md', '--actor', 'agent', '--source', 'background', '--now', ago(daysAgo)],
    { cwd: dir },
  );
  expect(run.code, run.stderr).toBe(0);
}

async function bump(dir: string, name: string, kind: 'use' | 'view', daysAgo: number) {
  expect((await cli(['usage', 'bump', name, `--${kind}`, '--writer', 'laptop', '--now', ago(daysAgo)], { cwd: dir })).code).toBe(0);
}

describe('the lifecycle, run through the CLI on a real repository', () => {
  it('decides every branch and boundary of DESIGN §6', async () => {
    const dir = repoWith({
      'skills/person-old/SKILL.md': skillText('person-old'),
      'skills/hub-old/SKILL.md': skillText('hub-old'),
      'skills/bundled-old/SKILL.md': skillText('bundled-old'),
      'skills/adopted-old/SKILL.md': skillText('adopted-old'),
      '.skillgarden/bundled.txt': 'bundled-old\n',
      '.skillgarden/hub.json': '{"hub-old": {"source": "example/hub"}}\n',
      '.skillgarden/config.yaml': 'references:\n  - "cron/*.yaml"\n',
      'cron/nightly.yaml': 'job: nightly\nrun_skill: referenced-old\n',
      'draft.md': '',
    });
    const cases: [string, number][] = [
      ['recent-29', 29],
      ['boundary-30', 30],
      ['old-89', 89],
      ['boundary-90', 90],
      ['viewed-recently', 200],
      ['pinned-old', 200],
      ['referenced-old', 200],
      ['plan', 200],
      ['used-again', 200],
      ['wrongly-stale', 5],
      ['stale-still-old', 60],
    ];
    for (const [name, days] of cases) await agentCreates(dir, name, days);
    await bump(dir, 'viewed-recently', 'view', 3);
    await bump(dir, 'used-again', 'use', 2);
    expect((await cli(['usage', 'flush', '--writer', 'laptop', '--now', ago(1)], { cwd: dir })).code).toBe(0);
    expect((await cli(['pin', 'pinned-old', '--now', ago(100)], { cwd: dir })).code).toBe(0);
    expect((await cli(['adopt', 'adopted-old', '--now', ago(100)], { cwd: dir })).code).toBe(0);
    writeTree(dir, {
      '.skillgarden/state.json': JSON.stringify({
        version: 1,
        last_run_at: ago(8),
        skills: {
          'used-again': { state: 'stale', since: ago(60) },
          'wrongly-stale': { state: 'stale', since: ago(1) },
          'stale-still-old': { state: 'stale', since: ago(20) },
          'pinned-old': { state: 'stale', since: ago(50) },
          'deleted-by-hand': { state: 'stale', since: ago(40) },
        },
      }),
    });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'state as a previous run left it');

    const run = await cli(['curate', '--json', '--now', now.toISOString()], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    const moved = Object.fromEntries(
      report.transitions.map((t: { skill: string; from: string; to: string }) => [t.skill, `${t.from}→${t.to}`]),
    );
    expect(moved).toEqual({
      'boundary-30': 'active→stale',
      'old-89': 'active→stale',
      'boundary-90': 'active→archived',
      plan: 'active→stale', // protected: never archived, however old
      'used-again': 'stale→active',
      'wrongly-stale': 'stale→active',
    });
    const skipped = Object.fromEntries(report.skipped.map((s: { skill: string; reason: string }) => [s.skill, s.reason]));
    expect(skipped).toMatchObject({
      'recent-29': 'recent',
      'viewed-recently': 'unchanged',
      'pinned-old': 'pinned',
      'referenced-old': 'referenced',
      'stale-still-old': 'unchanged',
      'bundled-old': 'recent',
      'adopted-old': 'recent', // a person's old skill, adopted: its clock starts when the curator first sees it
    });
    expect(skipped['person-old']).toBeUndefined();
    expect(skipped['hub-old']).toBeUndefined();
    expect(report.counters).toEqual({ checked: 13, marked_stale: 3, archived: 1, reactivated: 2, seeded: 2 });
    expect(report.seeded).toEqual(['adopted-old', 'bundled-old']);
    expect(report.forgotten).toEqual(['deleted-by-hand']);
    expect(existsSync(join(dir, 'skills/.archive/boundary-90/SKILL.md'))).toBe(true);
    const state = readState(dir);
    expect(state.skills['bundled-old']?.seeded_at).toBe(now.toISOString());
    expect(state.skills['pinned-old']?.state).toBe('stale');
    expect(state.skills['deleted-by-hand']).toBeUndefined();
    expect(state.last_run_at).toBe(now.toISOString());

    // Every commit of the run carries its id; rolling the run back restores the tree exactly.
    const before = git(dir, 'rev-parse', `skillgarden/run/${report.run_id}^{tree}`).trim();
    const undo = await cli(['rollback', '--run', report.run_id], { cwd: dir });
    expect(undo.code, undo.stderr).toBe(0);
    expect(git(dir, 'rev-parse', 'HEAD^{tree}').trim()).toBe(before);
  });

  it('the first scheduled run only records its time; a dry run writes nothing', async () => {
    const dir = repoWith({ 'draft.md': '' });
    await agentCreates(dir, 'old-skill', 200);
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    const dry = JSON.parse((await cli(['curate', '--dry-run', '--json', '--now', now.toISOString()], { cwd: dir })).stdout);
    expect(dry.status).toBe('dry-run');
    expect(dry.transitions).toMatchObject([{ skill: 'old-skill', to: 'archived', commit: null }]);
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(git(dir, 'tag')).toBe('');

    const first = JSON.parse((await cli(['curate', '--scheduled', '--json', '--now', now.toISOString()], { cwd: dir })).stdout);
    expect(first.status).toBe('first-run');
    expect(first.transitions).toEqual([]);
    expect(existsSync(join(dir, 'skills/old-skill/SKILL.md'))).toBe(true);

    const tooSoon = JSON.parse((await cli(['curate', '--scheduled', '--json', '--now', ago(-1)], { cwd: dir })).stdout);
    expect(tooSoon).toMatchObject({ status: 'skipped', gates: { blocked_by: 'interval' } });

    const due = JSON.parse((await cli(['curate', '--scheduled', '--json', '--now', ago(-8)], { cwd: dir })).stdout);
    expect(due.status).toBe('completed');
    expect(due.transitions).toMatchObject([{ skill: 'old-skill', to: 'archived' }]);
  });

  it('stops with a clear error naming the key on a bad config value', async () => {
    const dir = repoWith({ '.skillgarden/config.yaml': 'stale_after_days: soon\nstale_afterdays: 3\n' });
    const run = await cli(['curate'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('.skillgarden/config.yaml:1 stale_after_days must be number');
    expect(run.stderr).toContain('unknown setting "stale_afterdays"');
  });

  it('lists skills with state, provenance and score', async () => {
    const dir = repoWith({ 'skills/mine/SKILL.md': skillText('mine'), 'draft.md': '' });
    await agentCreates(dir, 'theirs', 10);
    await bump(dir, 'theirs', 'use', 1);
    await cli(['usage', 'flush', '--writer', 'laptop', '--now', ago(1)], { cwd: dir });
    const list = JSON.parse((await cli(['list', '--json', '--now', now.toISOString()], { cwd: dir })).stdout);
    expect(list.skills).toMatchObject([
      { name: 'theirs', state: 'active', provenance: 'agent', use_count: 1, last_activity_at: ago(1) },
      { name: 'mine', state: 'active', provenance: 'user', use_count: 0, last_activity_at: null, score: 0 },
    ]);
    expect(list.skills[0].score).toBeGreaterThan(0.5);
  });

  it('calls a skill inactive where the reminder leaves it out: latest of use, view and patch, pinned exempt', async () => {
    const dir = repoWith({ 'draft.md': '' });
    for (const name of ['used-long-ago', 'viewed-lately', 'pinned-long-ago']) await agentCreates(dir, name, 40);
    for (const name of ['used-long-ago', 'viewed-lately', 'pinned-long-ago']) await bump(dir, name, 'use', 20);
    await bump(dir, 'viewed-lately', 'view', 2);
    expect((await cli(['usage', 'flush', '--writer', 'laptop', '--now', ago(1)], { cwd: dir })).code).toBe(0);
    expect((await cli(['pin', 'pinned-long-ago', '--now', ago(1)], { cwd: dir })).code).toBe(0);
    const at = ['--now', now.toISOString()];
    const list = JSON.parse((await cli(['list', '--json', ...at], { cwd: dir })).stdout);
    const states = Object.fromEntries(list.skills.map((s: { name: string; state: string }) => [s.name, s.state]));
    expect(states).toEqual({ 'used-long-ago': 'inactive', 'viewed-lately': 'active', 'pinned-long-ago': 'active' });
    const reminder = (await cli(['reminder', ...at], { cwd: dir })).stdout;
    for (const [name, state] of Object.entries(states)) expect(reminder.includes(`- ${name}:`)).toBe(state === 'active');
  });
});
