import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeDigest } from '../../src/core/vendor/index.js';
import { cli } from '../helpers/cli.js';
import { git, lastTrailers, repoWith, status, subjects } from '../helpers/repo.js';
import { skillText } from '../helpers/tmp.js';
import { makeUpstream } from '../vendor/upstream-fixture.js';

const now = ['--now', '2026-05-01T10:00:00Z'];
const collection = () =>
  makeUpstream({
    'skills/pdf/SKILL.md': skillText('pdf'),
    'skills/pdf/references/forms.md': 'line 1\nline 2\nline 3\nline 4\nline 5\n',
    'skills/xlsx/SKILL.md': skillText('xlsx'),
  });
const library = () => repoWith({ 'skills/deploy/SKILL.md': skillText('deploy') });
const lockOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'skills-lock.json'), 'utf8')) as { version: number; skills: Record<string, Record<string, string>> };

describe('skillgarden add', () => {
  it('copies the named skill, pins its commit and digest in skills-lock.json, in one commit with trailers', async () => {
    const up = collection();
    const dir = library();
    const before = subjects(dir).length;
    const run = await cli(['add', up.url, '--skill', 'pdf', ...now], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(subjects(dir).length).toBe(before + 1);
    expect(lastTrailers(dir)).toEqual(['Skill-Action: add', 'Skill-Name: pdf', 'Skill-Actor: user']);
    expect(status(dir)).toBe('');
    expect(readFileSync(join(dir, 'skills/pdf/references/forms.md'), 'utf8')).toContain('line 3');
    expect(existsSync(join(dir, 'skills/xlsx'))).toBe(false);
    const tip = git(up.bare, 'rev-parse', 'main').trim();
    const files = ['SKILL.md', 'references/forms.md'].map((path) => ({ path, bytes: readFileSync(join(dir, 'skills/pdf', path)) }));
    expect(lockOf(dir)).toEqual({
      version: 1,
      skills: {
        pdf: {
          source: up.url,
          sourceType: 'git',
          computedHash: computeDigest(files),
          sourceUrl: up.url,
          skillPath: 'skills/pdf',
          commit: tip,
          installedAt: '2026-05-01T10:00:00.000Z',
        },
      },
    });
  });

  it('takes every skill of the source without --skill, and a local path as the source', async () => {
    const up = collection();
    const dir = library();
    const run = await cli(['add', up.work], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(Object.keys(lockOf(dir).skills)).toEqual(['pdf', 'xlsx']);
    expect(lockOf(dir).skills.pdf?.sourceType).toBe('local');
  });

  it('refuses bad input with a clear error and writes nothing', async () => {
    const up = collection();
    const dir = repoWith({ 'skills/pdf/SKILL.md': skillText('pdf') });
    const head = git(dir, 'rev-parse', 'HEAD');
    const cases: [string[], string][] = [
      [['add', `file://${up.bare}-missing`], 'could not fetch'],
      [['add', up.url, '--ref', 'nope'], 'has no branch or tag "nope"'],
      [['add', up.url, '--skill', 'docx'], 'has no skill "docx"; it has: pdf, xlsx'],
      [['add', up.url, '--skill', 'pdf'], 'skill "pdf" (skills/pdf in'],
      [['add', makeUpstream({ 'README.md': '# nothing\n' }).url], 'no skills found in'],
    ];
    for (const [args, message] of cases) {
      const run = await cli(args, { cwd: dir });
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr).toMatch(/nothing was written/i);
    }
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(head);
    expect(status(dir)).toBe('');
  });

  it('refuses a link that leads out of the skill, and an oversized skill', async () => {
    const dir = library();
    const linked = makeUpstream({ 'skills/pdf/SKILL.md': skillText('pdf') });
    symlinkSync('../../../../etc/passwd', join(linked.work, 'skills/pdf/secret'));
    linked.publish({}, 'a link out');
    const link = await cli(['add', linked.url], { cwd: dir });
    expect(link.code).toBe(2);
    expect(link.stderr).toContain('skills/pdf/ in');
    expect(link.stderr).toContain('secret');
    expect(link.stderr).toContain('outside the skill');
    const big = makeUpstream({ 'skills/pdf/SKILL.md': skillText('pdf') });
    big.publish({ 'skills/pdf/data.bin': 'x'.repeat(6 * 1024 * 1024) });
    const oversized = await cli(['add', big.url], { cwd: dir });
    expect(oversized.code).toBe(2);
    expect(oversized.stderr).toMatch(/skill "pdf" is \d+ bytes/);
    expect(status(dir)).toBe('');
    expect(existsSync(join(dir, 'skills-lock.json'))).toBe(false);
  });
});
