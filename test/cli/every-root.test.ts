import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { git, repoWith } from '../helpers/repo.js';

const skill = (name: string, topic: string) =>
  `---\nname: ${name}\ndescription: Deploy ${topic} notes for the web service. Use when deploying to ${topic}.\n---\n# ${topic}\n\nDeploy the web service to ${topic} servers and watch the release.\n`;

const second = 'plugins/ops/skills';
const otelFixture = join(import.meta.dirname, '..', 'fixtures', 'otel', 'claude-code-logs.jsonl');
const now = '2026-11-30T00:00:00Z';

/**
 * A library of two roots, detected with no configuration (`skills/` and
 * `plugins/*\/skills`), or named by `skills_dir`: history, rollback, usage and
 * plans see the skills of the second root as they see those of the first.
 */
async function twoRootLibrary(config: string | undefined): Promise<{ dir: string; run: (...argv: string[]) => ReturnType<typeof cli> }> {
  const dir = repoWith({
    'skills/house-style/SKILL.md': skill('house-style', 'style'),
    [`${second}/runbook/SKILL.md`]: skill('runbook', 'runbook'),
    'plugins/ops/.claude-plugin/plugin.json': '{"name": "ops"}\n',
    ...(config === undefined ? {} : { '.skillgarden/config.yaml': config }),
  });
  const run = (...argv: string[]) => cli(['--now', now, ...argv], { cwd: dir, env: { SKILLGARDEN_BACKEND: 'system-git' } });
  for (const topic of ['staging', 'production']) {
    writeFileSync(join(dir, `.draft-${topic}.md`), skill(`deploy-${topic}`, topic));
    const created = await run(
      'manage',
      'create',
      `deploy-${topic}`,
      '--content',
      `.draft-${topic}.md`,
      '--root',
      second,
      '--actor',
      'agent',
      '--source',
      'background',
    );
    expect(created.code, created.stderr).toBe(0);
  }
  git(dir, 'clean', '-fdq');
  return { dir, run };
}

describe.each([
  ['detected with no configuration', undefined],
  ['named by skills_dir', 'skills_dir: [skills, "plugins/*/skills"]\n'],
])('every command on every root (%s)', (_label, config) => {
  it('logs and shows a skill of the second root from its history', async () => {
    const { run } = await twoRootLibrary(config);
    const log = JSON.parse((await run('log', '--skill', 'deploy-staging', '--json')).stdout) as { entries: { subject: string }[] };
    expect(log.entries).toHaveLength(1);
    expect(log.entries[0]?.subject).toContain('deploy-staging');
    const shown = await run('show', 'deploy-staging', '--json');
    expect(shown.code, shown.stderr).toBe(0);
    // A plugin's skill is named as Claude Code names it; its plain name finds it while no other plugin has one.
    expect(JSON.parse(shown.stdout)).toMatchObject({ name: 'ops:deploy-staging', path: `${second}/deploy-staging`, provenance: 'agent' });
    expect(JSON.parse(shown.stdout).history).toMatchObject({ folder: `${second}/deploy-staging` });
    // A person's skill of the second root stays a person's.
    expect(JSON.parse((await run('show', 'runbook', '--json')).stdout)).toMatchObject({ provenance: 'user' });
  });

  it('rolls back a patch of a skill in the second root', async () => {
    const { dir, run } = await twoRootLibrary(config);
    const file = join(dir, second, 'deploy-staging/SKILL.md');
    const before = readFileSync(file, 'utf8');
    const patched = await run('manage', 'patch', 'deploy-staging', '--old', 'watch the release', '--new', 'page the on-call');
    expect(patched.code, patched.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).not.toBe(before);
    const rolled = await run('rollback', 'HEAD', '--json');
    expect(rolled.code, rolled.stderr).toBe(0);
    expect(JSON.parse(rolled.stdout)).toMatchObject({ status: 'reverted', files: [`${second}/deploy-staging/SKILL.md`] });
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it("counts uses of a skill in the second root, and Hermes's .usage.json kept there", async () => {
    const { dir, run } = await twoRootLibrary(config);
    expect((await run('usage', 'bump', 'deploy-staging', '--use', '--writer', 'ci')).code).toBe(0);
    const flushed = await run('usage', 'flush', '--writer', 'ci', '--json');
    expect(flushed.code, flushed.stderr).toBe(0);
    expect(JSON.parse(flushed.stdout)).toMatchObject({ bumps: 1, skills: ['deploy-staging'] });
    writeFileSync(join(dir, second, '.usage.json'), JSON.stringify({ runbook: { use_count: 3, last_used_at: now } }));
    const shown = JSON.parse((await run('usage', 'show', '--json')).stdout) as { totals: Record<string, { use_count: number }> };
    // Keyed as the client names the skills of plugin `ops`; a count recorded under the plain name is theirs (one plugin has it).
    expect(shown.totals['ops:deploy-staging']?.use_count).toBe(1);
    expect(shown.totals['ops:runbook']?.use_count).toBe(3);
    // The curator's read path sees the same counts.
    expect(JSON.parse((await run('show', 'runbook', '--json')).stdout).usage).toMatchObject({ use_count: 3 });
  });

  it('imports Claude Code activations of skills in the second root and shows them there', async () => {
    const dir = repoWith({
      'skills/review/SKILL.md': skill('review', 'review'),
      [`${second}/deploy/SKILL.md`]: skill('deploy', 'deploy'),
      ...(config === undefined ? {} : { '.skillgarden/config.yaml': config }),
    });
    const imported = await cli(['--now', now, '--json', 'usage', 'import', otelFixture], { cwd: dir });
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ imported: 3 });
    const shown = await cli(['--now', now, '--json', 'show', 'deploy'], { cwd: dir });
    expect(JSON.parse(shown.stdout)).toMatchObject({ path: `${second}/deploy`, usage: { use_count: 2 } });
  });

  it('plans the agent’s skills of the second root there: umbrella and archives beside that root', async () => {
    const { dir, run } = await twoRootLibrary(config);
    const planned = await run('plan', '--json');
    expect(planned.code, planned.stderr).toBe(0);
    const report = JSON.parse(planned.stdout) as { plans: { into: string; from: string[]; archived: { to: string }[] }[] };
    expect(report.plans.map((p) => [p.into, p.from])).toEqual([['deploy', ['deploy-production', 'deploy-staging']]]);
    for (const archive of report.plans[0]?.archived ?? []) expect(archive.to.startsWith(`${second}/.archive/`)).toBe(true);
    const dry = await run('curate', '--dry-run', '--consolidate', '--json');
    expect(dry.code, dry.stderr).toBe(0);
    // Applied, the plan is a proposal branch whose umbrella and archives are in that root.
    const applied = await run('plan', '--apply', '--json');
    expect(applied.code, applied.stderr).toBe(0);
    const tree = git(dir, 'ls-tree', '-r', '--name-only', 'skillgarden/umbrella/deploy').split('\n');
    expect(tree).toContain(`${second}/deploy/SKILL.md`);
    expect(tree.filter((path) => path.includes('/.archive/')).every((path) => path.startsWith(`${second}/.archive/`))).toBe(true);
    expect(tree.some((path) => path.includes('/.archive/'))).toBe(true);
    // A pin kept in .skillgarden/pins.txt keeps the skill out of every plan.
    expect((await run('pin', 'deploy-staging')).code).toBe(0);
    expect(JSON.parse((await run('plan', '--json')).stdout).plans).toEqual([]);
  });
});
