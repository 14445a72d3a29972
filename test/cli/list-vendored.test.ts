import { Ajv2020 } from 'ajv/dist/2020.js';
import { renameSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import listSchema from '../../schemas/list.schema.json' with { type: 'json' };
import { cli } from '../helpers/cli.js';
import { repoWith } from '../helpers/repo.js';
import { skillText } from '../helpers/tmp.js';
import { makeUpstream } from '../vendor/upstream-fixture.js';

const validateList = new Ajv2020({ strict: false }).compile(listSchema);

interface Row {
  name: string;
  provenance: string;
  source?: string;
  behind?: boolean;
}

async function listJson(dir: string, ...flags: string[]): Promise<Map<string, Row>> {
  const run = await cli(['--json', 'list', ...flags], { cwd: dir });
  expect(run.code, run.stderr).toBe(0);
  const data: unknown = JSON.parse(run.stdout);
  expect(validateList(data), JSON.stringify(validateList.errors)).toBe(true);
  return new Map((data as { skills: Row[] }).skills.map((s) => [s.name, s]));
}

describe('list and show: where a vendored skill comes from, and whether it is behind', () => {
  it('list names the source offline; --check-upstream fetches and says behind; show says the same', async () => {
    const up = makeUpstream({ 'skills/pdf/SKILL.md': skillText('pdf'), 'skills/xlsx/SKILL.md': skillText('xlsx') });
    const dir = repoWith({ 'skills/deploy/SKILL.md': skillText('deploy') });
    expect((await cli(['add', up.url, '--now', '2026-05-01T10:00:00Z'], { cwd: dir })).code).toBe(0);
    const plain = await listJson(dir);
    expect(plain.get('pdf')).toMatchObject({ provenance: 'hub', source: up.url });
    expect(plain.get('pdf')?.behind).toBeUndefined();
    expect(plain.get('deploy')?.source).toBeUndefined();
    expect(plain.get('deploy')?.behind).toBeUndefined();

    const tip = up.publish({ 'skills/pdf/notes.md': 'upstream notes\n' }, 'pdf: notes');
    const checked = await listJson(dir, '--check-upstream');
    expect(checked.get('pdf')).toMatchObject({ source: up.url, behind: true });
    expect(checked.get('xlsx')).toMatchObject({ source: up.url, behind: false });
    expect(checked.get('deploy')?.behind).toBeUndefined();
    const text = await cli(['list', '--check-upstream'], { cwd: dir });
    expect(text.stdout).toMatch(new RegExp(`^pdf +\\S+ +hub ← ${up.url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(behind\\)`, 'm'));
    expect(text.stdout).toMatch(/^xlsx .* \(current\)/m);

    const shown = await cli(['show', 'pdf', '--check-upstream'], { cwd: dir });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`behind its source: 1 upstream commit(s) to ${tip.slice(0, 12)}`);
    const shownJson = JSON.parse((await cli(['--json', 'show', 'pdf', '--check-upstream'], { cwd: dir })).stdout) as {
      vendored: { behind: boolean; upstream: { tip: string; commits: string[] } };
    };
    expect(shownJson.vendored).toMatchObject({ behind: true, upstream: { tip } });
    expect(shownJson.vendored.upstream.commits[0]).toMatch(/ pdf: notes$/);
    expect((await cli(['show', 'xlsx', '--check-upstream'], { cwd: dir })).stdout).toContain('current with its source');

    // Without the flag nothing is fetched: an unreachable source does not stop list; with it, the error names the source.
    renameSync(up.bare, `${up.bare}-gone`);
    expect((await listJson(dir)).get('pdf')?.source).toBe(up.url);
    const unreachable = await cli(['list', '--check-upstream'], { cwd: dir });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain(`could not fetch ${up.url}`);
  }, 120_000);
});
