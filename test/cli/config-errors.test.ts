import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { repoWith } from '../helpers/repo.js';
import { skillText } from '../helpers/tmp.js';

const badScan = 'scan:\n  policy:\n    agent: { dangerous: blok }\n';

describe('a config error stops only what needs the bad key', () => {
  const repo = () => repoWith({ 'skills/deploy/SKILL.md': skillText('deploy'), '.skillgarden/config.yaml': badScan });

  it.each([['reminder'], ['load', 'deploy'], ['list']])('%s warns about the bad scan: setting and goes on', async (...argv) => {
    const run = await cli(argv, { cwd: repo() });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/deploy/);
    expect(run.stderr).toMatch(/scan\.policy\.agent\.dangerous/);
    expect(run.stderr.match(/warning:/g)).toHaveLength(1);
  });

  it('a command that needs the bad key refuses, naming it', async () => {
    const run = await cli(['validate'], { cwd: repo(), env: { CI: '1' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/scan\.policy\.agent\.dangerous must be equal to one of the allowed values \(allow, ask, block\)/);
  });

  it('a bad key the read path does need still refuses', async () => {
    const dir = repoWith({ 'skills/deploy/SKILL.md': skillText('deploy'), '.skillgarden/config.yaml': 'skills_dir: 3\n' });
    expect((await cli(['reminder'], { cwd: dir })).code).toBe(2);
  });
});
