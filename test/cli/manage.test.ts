import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { git, lastTrailers, repoWith, subjects } from '../helpers/repo.js';
import { skillText } from '../helpers/tmp.js';

const library = () => repoWith({ 'skills/deploy/SKILL.md': skillText('deploy'), 'skills/deploy/references/a.md': '# A\n' });

describe('skillgarden manage and the people’s acts', () => {
  it('creates from a file as an agent in the background, with --now as the commit time', async () => {
    const dir = library();
    writeFileSync(join(dir, 'new.md'), skillText('notes'));
    const run = await cli(
      ['manage', 'create', 'notes', '--content', 'new.md', '--actor', 'agent', '--source', 'background', '--now', '2026-05-01T10:00:00Z'],
      { cwd: dir },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^create: notes — committed [0-9a-f]{12} \(1 file\)/);
    expect(lastTrailers(dir)).toEqual(['Skill-Action: create', 'Skill-Name: notes', 'Skill-Actor: agent', 'Skill-Source: background']);
    expect(git(dir, 'log', '-1', '--format=%aI').trim()).toBe('2026-05-01T10:00:00+00:00');
  });

  it('patches and prints JSON with --json', async () => {
    const dir = library();
    const run = await cli(['--json', 'manage', 'patch', 'deploy', '--old', 'Steps.', '--new', 'Better steps.'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ action: 'patch', skills: ['deploy'], details: { matcher: 'exact', replacements: 1 } });
    expect(readFileSync(join(dir, 'skills/deploy/SKILL.md'), 'utf8')).toContain('Better steps.');
  });

  it('exits 1 with the reason when a write is refused, and 2 on bad usage', async () => {
    const dir = library();
    const refused = await cli(['manage', 'patch', 'deploy', '--old', 'nowhere to be found', '--new', 'x'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the text to replace was not found');
    const usage = await cli(['manage', 'patch', 'deploy', '--old', 'x'], { cwd: dir });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('patch needs --old TEXT and --new TEXT');
    expect((await cli(['manage', 'frobnicate', 'x'], { cwd: dir })).code).toBe(2);
    expect((await cli(['manage', 'delete', 'deploy', '--actor', 'robot'], { cwd: dir })).code).toBe(2);
  });

  it('archives and restores, pins and unpins, each one commit', async () => {
    const dir = library();
    for (const args of [
      ['archive', 'deploy'],
      ['restore', 'deploy'],
      ['pin', 'deploy'],
      ['unpin', 'deploy'],
      ['adopt', 'deploy'],
    ]) {
      const run = await cli(args, { cwd: dir });
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
    }
    expect(
      subjects(dir)
        .slice(0, 5)
        .map((s) => s.split(' — ')[0]),
    ).toEqual(['skill(adopt): deploy', 'skill(unpin): deploy', 'skill(pin): deploy', 'skill(restore): deploy', 'skill(archive): deploy']);
    expect(readFileSync(join(dir, 'skills/deploy/references/a.md'), 'utf8')).toBe('# A\n');
  });

  it('rolls a commit back, refuses when its files changed since, and rolls back the rollback', async () => {
    const dir = library();
    await cli(['manage', 'patch', 'deploy', '--old', 'Steps.', '--new', 'One.'], { cwd: dir });
    const patched = git(dir, 'rev-parse', 'HEAD').trim();
    await cli(['manage', 'patch', 'deploy', '--old', 'One.', '--new', 'Two.'], { cwd: dir });
    const refused = await cli(['rollback', patched], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('skills/deploy/SKILL.md');
    const last = git(dir, 'rev-parse', 'HEAD').trim();
    const undo = await cli(['rollback', last], { cwd: dir });
    expect(undo.code).toBe(0);
    expect(readFileSync(join(dir, 'skills/deploy/SKILL.md'), 'utf8')).toContain('One.');
    expect(lastTrailers(dir)).toEqual(expect.arrayContaining(['Skill-Action: rollback', `Reverts: ${last}`]));
    const redo = await cli(['rollback', 'HEAD'], { cwd: dir });
    expect(redo.code).toBe(0);
    expect(readFileSync(join(dir, 'skills/deploy/SKILL.md'), 'utf8')).toContain('Two.');
  });
});

describe('skillgarden log', () => {
  it('reads the ledger with filters, in text and JSON', async () => {
    const dir = library();
    await cli(['manage', 'patch', 'deploy', '--old', 'Steps.', '--new', 'One.', '--actor', 'agent'], { cwd: dir });
    await cli(['pin', 'deploy'], { cwd: dir });
    const json = JSON.parse((await cli(['--json', 'log'], { cwd: dir })).stdout);
    expect(json.entries.map((e: { action: string | null }) => e.action)).toEqual(['pin', 'patch', null]);
    expect(json.entries[1]).toMatchObject({ skills: ['deploy'], actor: 'agent', source: 'foreground', run: null });
    expect(json.entries[2]).toMatchObject({ actor: 'user', subject: 'initial library' });
    const agentOnly = JSON.parse((await cli(['--json', 'log', '--actor', 'agent'], { cwd: dir })).stdout);
    expect(agentOnly.entries).toHaveLength(1);
    const text = await cli(['log', '--skill', 'deploy'], { cwd: dir });
    expect(text.stdout).toContain('pin');
    expect((await cli(['log', '--actor', 'robot'], { cwd: dir })).code).toBe(2);
  });
});

describe('settings from .skillgarden/config.yaml', () => {
  it('manage, validate, list and reminder all use the configured skills_dir and profile', async () => {
    const dir = repoWith({
      '.skillgarden/config.yaml': 'skills_dir: library\nprofile: spec\n',
      'library/deploy/SKILL.md': skillText('deploy'),
      'draft.md': skillText('notes', 'version: 1.0.0\n'),
    });
    const refused = await cli(['manage', 'create', 'notes', '--content', 'draft.md'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('schema/unknown-key');
    writeFileSync(join(dir, 'draft.md'), skillText('notes'));
    expect((await cli(['manage', 'create', 'notes', '--content', 'draft.md'], { cwd: dir })).code).toBe(0);
    expect(readFileSync(join(dir, 'library/notes/SKILL.md'), 'utf8')).toBe(skillText('notes'));
    expect(JSON.parse((await cli(['validate', '--json', '--no-scan'], { cwd: dir })).stdout)).toMatchObject({ skills: 2, profile: 'spec' });
    expect(
      JSON.parse((await cli(['list', '--json'], { cwd: dir })).stdout)
        .skills.map((s: { path: string }) => s.path)
        .sort(),
    ).toEqual(['library/deploy', 'library/notes']);
    expect((await cli(['reminder'], { cwd: dir })).stdout).toContain('- notes:');
  });
});
