import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { git, repoWith } from '../helpers/repo.js';
import { skillText } from '../helpers/tmp.js';

const head = (dir: string) => git(dir, 'rev-parse', 'HEAD').trim();

async function manage(dir: string, ...args: string[]): Promise<string> {
  const run = await cli(['manage', ...args], { cwd: dir });
  expect(run.code, run.stderr).toBe(0);
  return head(dir);
}

describe('rollback of a create', () => {
  it('with later commits to the skill: refused, naming them, nothing written; never an orphan folder', async () => {
    const dir = repoWith({ 'skills/keep/SKILL.md': skillText('keep') });
    writeFileSync(join(dir, '.git', 'draft.md'), skillText('fresh'));
    writeFileSync(join(dir, '.git', 'ref.md'), '# notes\n');
    const created = await manage(dir, 'create', 'fresh', '--content', join(dir, '.git', 'draft.md'));
    const wrote = await manage(dir, 'write-file', 'fresh', 'references/notes.md', '--content', join(dir, '.git', 'ref.md'));
    const run = await cli(['rollback', created], { cwd: dir });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('skills/fresh/references/notes.md');
    expect(run.stderr).toContain(wrote.slice(0, 12));
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(head(dir)).toBe(wrote);
    expect(existsSync(join(dir, 'skills/fresh/SKILL.md'))).toBe(true);

    // The plain path: the later commit rolled back first, the create then reverts whole.
    expect((await cli(['rollback', wrote], { cwd: dir })).code).toBe(0);
    expect((await cli(['rollback', created], { cwd: dir })).code).toBe(0);
    expect(existsSync(join(dir, 'skills/fresh'))).toBe(false);
  });
});
