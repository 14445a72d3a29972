import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyUsageByClientName } from '../../../src/core/usage/index.js';
import { createRepoUsageStore, SkillRegistry } from '../../../src/registry/index.js';
import { cli } from '../../helpers/cli.js';
import { git, repoWith } from '../../helpers/repo.js';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'layouts');
const now = new Date('2026-11-30T00:00:00Z');

/** A git copy of the marketplace whose plugins alpha and beta both have a `setup` skill, with usage files as given. */
function marketplace(usage: Record<string, Record<string, object>>): string {
  const dir = repoWith({});
  cpSync(join(fixtures, 'marketplace-shared-names'), dir, { recursive: true });
  mkdirSync(join(dir, '.skillgarden', 'usage'), { recursive: true });
  for (const [writer, skills] of Object.entries(usage))
    writeFileSync(join(dir, '.skillgarden', 'usage', `${writer}.json`), JSON.stringify({ version: 1, writer, skills }));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'marketplace with usage');
  return dir;
}

const use = (count: number, day: string) => ({ use_count: count, last_used_at: `2026-11-${day}T00:00:00Z` });

describe('usage keyed as the client names the skill', () => {
  it('keeps plugin skills apart; an old record under a folder name counts where one plugin has it, and is reported where several do', async () => {
    // `old` wrote before plugin skills had qualified names: `setup` is alpha's or beta's, nobody can say; `lint` only alpha has.
    const dir = marketplace({
      old: { setup: use(7, '20'), lint: use(2, '21'), notes: use(1, '22') },
      laptop: { 'alpha:setup': use(4, '25'), 'beta:setup': use(1, '26'), 'alpha:lint': use(1, '27') },
    });
    const list = await cli(['list', '--json'], { cwd: dir });
    expect(list.code).toBe(0);
    const counts = Object.fromEntries(
      (JSON.parse(list.stdout) as { skills: { name: string; use_count: number }[] }).skills.map((s) => [s.name, s.use_count]),
    );
    expect(counts).toEqual({ 'alpha:setup': 4, 'beta:setup': 1, 'alpha:lint': 3, notes: 1, 'solo:solo': 0 });
    const show = JSON.parse((await cli(['show', 'alpha:lint', '--json'], { cwd: dir })).stdout) as { usage: { use_count: number } };
    expect(show.usage.use_count).toBe(3);

    const shown = JSON.parse((await cli(['usage', 'show', '--json'], { cwd: dir })).stdout) as {
      totals: Record<string, { use_count: number }>;
      findings: { code: string; file: string; message: string }[];
    };
    expect(shown.totals['alpha:lint']?.use_count).toBe(3);
    expect(shown.totals.setup?.use_count).toBe(7);
    const ambiguous = shown.findings.filter((f) => f.code === 'usage/ambiguous-name');
    expect(ambiguous).toHaveLength(1);
    expect(ambiguous[0]?.file).toBe('.skillgarden/usage/old.json');
    expect(ambiguous[0]?.message).toContain('alpha:setup, beta:setup');
  }, 60_000);

  it('the runtime (MCP, reminder, load) reads and records counts under plugin:skill', async () => {
    const dir = marketplace({ old: { lint: use(2, '21'), setup: use(9, '21') }, laptop: { 'beta:setup': use(1, '26') } });
    const usage = createRepoUsageStore({ repoDir: dir, skillsDir: '', writer: 'agent', now: () => now });
    const registry = await SkillRegistry.open({ repoDir: dir, usage, now: () => now });
    expect(registry.usageOf('alpha:lint')?.use_count).toBe(2);
    expect(registry.usageOf('lint')?.use_count).toBe(2);
    expect(registry.usageOf('beta:setup')?.use_count).toBe(1);
    expect(registry.usageOf('alpha:setup')?.use_count ?? 0).toBe(0);
    expect(await registry.recordUsage('alpha:setup', 'use')).toBe(true);
    expect(await registry.recordUsage('beta:setup', 'use')).toBe(true);
    await registry.refresh();
    expect(registry.usageOf('alpha:setup')?.use_count).toBe(1);
    expect(registry.usageOf('beta:setup')?.use_count).toBe(2);

    const flush = await cli(['usage', 'flush', '--writer', 'agent', '--json'], { cwd: dir });
    expect(JSON.parse(flush.stdout)).toMatchObject({ bumps: 2, skills: ['alpha:setup', 'beta:setup'] });
    const shown = JSON.parse((await cli(['usage', 'show', '--json'], { cwd: dir })).stdout) as { totals: Record<string, unknown> };
    // The old `lint` is alpha's (only alpha has one); the old `setup` stays apart, reported.
    expect(Object.keys(shown.totals).sort()).toEqual(['alpha:lint', 'alpha:setup', 'beta:setup', 'setup']);
  }, 60_000);

  it('a key is moved only to a skill that names it unambiguously; a plain skill keeps its own name', () => {
    const totals = new Map([
      ['setup', { use_count: 1 }],
      ['lint', { use_count: 2 }],
      ['notes', { use_count: 3 }],
      ['gone', { use_count: 4 }],
      ['alpha:lint', { use_count: 5 }],
    ]);
    const keyed = keyUsageByClientName(totals, ['alpha:setup', 'beta:setup', 'alpha:lint', 'notes', 'setup-x']);
    expect(Object.fromEntries([...keyed.totals].map(([k, v]) => [k, v.use_count]))).toEqual({
      setup: 1,
      'alpha:lint': 7,
      notes: 3,
      gone: 4,
    });
    expect(keyed.ambiguous).toEqual([{ key: 'setup', ids: ['alpha:setup', 'beta:setup'] }]);
    // A plain skill named like a plugin's skill keeps the plain record: it is its own name.
    expect(keyUsageByClientName(new Map([['setup', { use_count: 1 }]]), ['setup', 'alpha:setup']).totals.get('setup')?.use_count).toBe(1);
  });
});
