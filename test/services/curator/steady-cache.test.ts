import { execFileSync } from 'node:child_process';
import { statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../../src/core/report/run-report.js';
import { runCurator } from '../../../src/services/curator/run-curator.js';
import { steadyCachePath } from '../../../src/services/curator/steady-cache.js';
import { repoWith } from '../../helpers/repo.js';
import { skillText, writeTree } from '../../helpers/tmp.js';

const day = 86_400;
const base = Date.parse('2026-06-01T00:00:00Z') / 1000;

/** A commit by the agent's background review, dated `at` (seconds), as the ledger writes them. */
function agentCommit(dir: string, at: number, action: 'create' | 'patch', name: string): void {
  const env = { ...process.env, GIT_AUTHOR_DATE: `${at} +0000`, GIT_COMMITTER_DATE: `${at} +0000`, GIT_CONFIG_NOSYSTEM: '1' };
  execFileSync('git', ['add', '-A'], { cwd: dir, env });
  const message = `skill(${action}): ${name}\n\nSkill-Action: ${action}\nSkill-Name: ${name}\nSkill-Actor: agent\nSkill-Source: background\n`;
  execFileSync('git', ['commit', '-q', '-m', message], { cwd: dir, env });
}

function usageFile(uses: Record<string, number>): string {
  const skills = Object.fromEntries(
    Object.entries(uses).map(([name, at]) => [
      name,
      { use_count: 1, last_used_at: new Date(at * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') },
    ]),
  );
  return JSON.stringify({ version: 1, writer: 'laptop', skills });
}

async function library() {
  const dir = repoWith({ '.skillgarden/config.yaml': 'stale_after_days: 30\narchive_after_days: 90\n' });
  for (const [i, name] of ['alpha', 'beta', 'gamma', 'delta', 'omega'].entries()) {
    writeTree(dir, { [`skills/${name}/SKILL.md`]: skillText(name) });
    agentCommit(dir, base + i * day, 'create', name);
  }
  writeTree(dir, { '.skillgarden/usage/laptop.json': usageFile({ alpha: base + 40 * day, beta: base + 70 * day }) });
  return dir;
}

/** A report without its timings, which differ run to run. */
const comparable = (report: RunReport) => ({ ...report, timings_ms: {} });

/** The same pass with the cache and without: the reports must be equal. */
async function bothWays(dir: string, now: Date, dryRun = true): Promise<RunReport> {
  const plain = await runCurator({ repoDir: dir, now, dryRun: true, cache: false });
  const cached = await runCurator({ repoDir: dir, now, dryRun });
  expect(comparable(cached.report)).toEqual(dryRun ? comparable(plain.report) : { ...comparable(cached.report) });
  if (dryRun) return cached.report;
  expect(cached.report.transitions.map((t) => `${t.skill}:${t.to}`)).toEqual(plain.report.transitions.map((t) => `${t.skill}:${t.to}`));
  return cached.report;
}

/** Stamps of files changed within 2 s of a pass are not trusted: waiting lets the next pass use them, as a steady library would. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 2_100));

describe('the steady curator pass (.git/skillgarden/curator-cache.json)', () => {
  it('sees every change since the last pass: an edited SKILL.md, a new use, a new commit, the clock crossing a threshold', async () => {
    const dir = await library();
    const cacheFile = steadyCachePath(join(dir, '.git'));
    let now = new Date((base + 100 * day) * 1000);
    const first = await bothWays(dir, now);
    expect(first.transitions.map((t) => `${t.skill}:${t.to}`)).toEqual([
      'alpha:stale',
      'beta:stale',
      'delta:archived',
      'gamma:archived',
      'omega:archived',
    ]);
    await settle();

    // Nothing changed: the pass is served from the cache, which is not rewritten.
    await bothWays(dir, now);
    const written = statSync(cacheFile).mtimeMs;
    await bothWays(dir, now);
    expect(statSync(cacheFile).mtimeMs).toBe(written);

    // A person pins a skill in its frontmatter; the file keeps its old modification time.
    const skill = join(dir, 'skills/delta/SKILL.md');
    const { mtime } = statSync(skill);
    writeFileSync(skill, skillText('delta', 'pinned: true\n'));
    utimesSync(skill, mtime, mtime);
    expect((await bothWays(dir, now)).skipped).toContainEqual(expect.objectContaining({ skill: 'delta', reason: 'pinned' }));
    await settle();
    expect((await bothWays(dir, now)).skipped).toContainEqual(expect.objectContaining({ skill: 'delta', reason: 'pinned' }));

    // A new use of gamma.
    writeTree(dir, {
      '.skillgarden/usage/laptop.json': usageFile({ alpha: base + 40 * day, beta: base + 70 * day, gamma: base + 99 * day }),
    });
    await settle();
    expect((await bothWays(dir, now)).transitions.map((t) => t.skill)).not.toContain('gamma');

    // A new commit: the agent patches omega.
    writeTree(dir, { 'skills/omega/SKILL.md': skillText('omega', '', '# omega\n\nBetter steps.\n') });
    agentCommit(dir, base + 95 * day, 'patch', 'omega');
    expect((await bothWays(dir, now)).transitions.map((t) => t.skill)).not.toContain('omega');

    // A real run, then the clock moves on: gamma (used on day 99) becomes stale on day 129, with nothing else changed.
    await bothWays(dir, now, false);
    now = new Date((base + 128 * day) * 1000);
    expect((await bothWays(dir, now)).transitions.map((t) => `${t.skill}:${t.to}`)).not.toContain('gamma:stale');
    now = new Date((base + 129 * day) * 1000);
    expect((await bothWays(dir, now)).transitions.map((t) => `${t.skill}:${t.to}`)).toContain('gamma:stale');
  });
});
