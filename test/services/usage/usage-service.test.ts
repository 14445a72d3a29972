import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLedger } from '../../../src/ledger/open-ledger.js';
import { bumpUsage, flushUsage, showUsage } from '../../../src/services/usage.js';
import { git, lastTrailers, repoWith, status } from '../../helpers/repo.js';
import { skillText } from '../../helpers/tmp.js';

const now = new Date('2026-11-30T00:00:00Z');

describe('usage bumps and flushes', () => {
  it('batches bumps locally and flushes them as one usage commit touching only the writer’s file', async () => {
    const dir = repoWith({ 'skills/x/SKILL.md': skillText('x') });
    await bumpUsage(dir, 'laptop', { skill: 'x', kind: 'use', at: '2026-11-01T00:00:00Z' });
    await bumpUsage(dir, 'laptop', { skill: 'x', kind: 'view', at: '2026-11-02T00:00:00Z' });
    expect(status(dir)).toBe('');
    const ledger = await openLedger(dir);
    const result = await flushUsage({ repoDir: dir, ledger, writer: 'laptop', skillsDir: 'skills', now });
    expect(result).toMatchObject({ bumps: 2, skills: ['x'] });
    expect(git(dir, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('.skillgarden/usage/laptop.json');
    expect(lastTrailers(dir)).toEqual(['Skill-Action: usage', 'Skill-Name: x', 'Skill-Actor: agent']);
    expect(JSON.parse(readFileSync(join(dir, '.skillgarden/usage/laptop.json'), 'utf8')).skills.x).toMatchObject({
      use_count: 1,
      view_count: 1,
    });
    expect((await flushUsage({ repoDir: dir, ledger, writer: 'laptop', skillsDir: 'skills', now })).commit).toBeUndefined();
  });

  it('sums writers from many machines and sets a corrupt file aside without overwriting it', async () => {
    const dir = repoWith({
      'skills/x/SKILL.md': skillText('x'),
      '.skillgarden/usage/desktop.json': JSON.stringify({
        version: 1,
        writer: 'desktop',
        skills: { x: { use_count: 2 }, ghost: { use_count: 1 } },
      }),
      '.skillgarden/usage/laptop.json': '{ corrupt',
    });
    const shown = showUsage(dir, { skillsDir: 'skills', now });
    expect(shown.totals.x?.use_count).toBe(2);
    expect(shown.quarantined).toEqual(['.skillgarden/usage/laptop.json']);
    await bumpUsage(dir, 'laptop', { skill: 'x', kind: 'use', at: '2026-11-03T00:00:00Z' });
    const result = await flushUsage({ repoDir: dir, ledger: await openLedger(dir), writer: 'laptop', skillsDir: 'skills', now });
    expect(result.quarantined).toMatch(/^\.skillgarden\/usage\/quarantine\/laptop-/);
    expect(readFileSync(join(dir, result.quarantined as string), 'utf8')).toBe('{ corrupt');
    expect(showUsage(dir, { skillsDir: 'skills', now }).totals.x?.use_count).toBe(3);
  });

  it('never loses a bump that arrives while a flush runs, and survives a torn last line', async () => {
    const dir = repoWith({ 'skills/x/SKILL.md': skillText('x') });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        bumpUsage(dir, 'w', { skill: 'x', kind: 'use', at: `2026-11-01T00:00:${String(i).padStart(2, '0')}Z` }),
      ),
    );
    const pending = join(dir, '.git/skillgarden/usage-pending/w.jsonl');
    writeFileSync(pending, `${readFileSync(pending, 'utf8')}{"skill": "x", "ki`);
    const ledger = await openLedger(dir);
    // The bump lands before the flush reads: it must not be glued to the torn line.
    await bumpUsage(dir, 'w', { skill: 'x', kind: 'use', at: '2026-11-02T00:00:00Z' });
    const [flushed] = await Promise.all([
      flushUsage({ repoDir: dir, ledger, writer: 'w', skillsDir: 'skills', now }),
      bumpUsage(dir, 'w', { skill: 'x', kind: 'use', at: '2026-11-02T00:00:01Z' }),
    ]);
    const second = await flushUsage({ repoDir: dir, ledger, writer: 'w', skillsDir: 'skills', now });
    expect(flushed.bumps + second.bumps).toBe(22);
    expect(showUsage(dir, { skillsDir: 'skills', now }).totals.x?.use_count).toBe(22);
    expect(existsSync(pending)).toBe(true);
  });
});
