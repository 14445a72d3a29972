import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSkillgardenError } from '../../src/core/errors.js';
import { loadCommand, reminderCommand, syncCommand } from '../../src/cli/commands/runtime.js';
import type { Command, CommandContext } from '../../src/cli/context.js';
import { repoWith } from '../helpers/repo.js';
import { skillText } from '../helpers/tmp.js';

/** Runs one command object in-process (the lead registers these in the CLI's command list). */
async function run(command: Command, repo: string, positionals: string[], values: CommandContext['values'] = {}, json = false) {
  let stdout = '';
  let stderr = '';
  const code = await command.run({
    io: {
      stdout: { write: (c: string) => ((stdout += c), true) },
      stderr: { write: (c: string) => ((stderr += c), true) },
      env: { SKILLGARDEN_WRITER: 'cli-test' },
      cwd: repo,
      interactive: false,
    },
    global: { repo, now: new Date('2026-11-30T00:00:00Z'), json },
    positionals,
    values,
  });
  return { code, stdout, stderr };
}

const library = () =>
  repoWith({
    'skills/deploy/SKILL.md': skillText(
      'deploy',
      'when_to_use: When shipping.\n',
      'Ship from ${SKILL_DIR} in ${SESSION_ID} to $ARGUMENTS.\n',
    ),
    'skills/lint/SKILL.md': skillText('lint', 'paths: ["src/**/*.ts"]\n'),
  });

describe('reminder', () => {
  it('prints the Layer-1 block; conditional skills wake with --paths', async () => {
    const repo = library();
    const plain = await run(reminderCommand, repo, []);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('- deploy: Does deploy things. Use when deploy is needed. — When shipping.');
    expect(plain.stdout).not.toContain('- lint');
    const woken = await run(reminderCommand, repo, [], { paths: ['src/a.ts'] });
    expect(woken.stdout).toContain('- lint');
  });

  it('keeps to --budget and reports JSON', async () => {
    const repo = library();
    const result = await run(reminderCommand, repo, [], { budget: '120' }, true);
    const parsed = JSON.parse(result.stdout) as { reminder: string; skills: number };
    expect(parsed.reminder.length).toBeLessThanOrEqual(120);
    expect(parsed.skills).toBe(0);
  });

  it('refuses a budget that is not a number', async () => {
    const error = await run(reminderCommand, library(), [], { budget: 'lots' }).catch((e: unknown) => e);
    expect(isSkillgardenError(error, 'cli/usage')).toBe(true);
  });
});

describe('load', () => {
  it('prints the skill with its folder, session and arguments filled in', async () => {
    const repo = library();
    const result = await run(loadCommand, repo, ['deploy'], { session: 'abc', arguments: 'prod' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Ship from ${join(repo, 'skills', 'deploy')} in abc to prod.`);
  });

  it('runs inline shell only with --inline-shell', async () => {
    const repo = repoWith({ 'skills/now/SKILL.md': skillText('now', '', 'Branch: !`git branch --show-current`\n') });
    expect((await run(loadCommand, repo, ['now'])).stdout).toContain('Branch: !`git branch --show-current`');
    expect((await run(loadCommand, repo, ['now'], { 'inline-shell': true })).stdout).toContain('Branch: main');
  });

  it('answers an unknown name with exit 1 and the closest names', async () => {
    const result = await run(loadCommand, library(), ['deploi']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Closest names: deploy');
  });

  it('gives the load result as JSON', async () => {
    const result = await run(loadCommand, library(), ['deploy'], {}, true);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'inline', name: 'deploy' });
  });

  it('needs exactly one name', async () => {
    const error = await run(loadCommand, library(), []).catch((e: unknown) => e);
    expect(isSkillgardenError(error, 'cli/usage')).toBe(true);
  });
});

describe('sync', () => {
  it('fails with a clear error when there is no remote', async () => {
    const error = await run(syncCommand, library(), []).catch((e: unknown) => e);
    expect(isSkillgardenError(error, 'sync/fetch-failed')).toBe(true);
  });
});
