import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryUsageStore, SkillRegistry, type ForkRunner } from '../../src/registry/index.js';
import { nodeScanFs } from '../../src/registry/library-scan.js';
import { git, repoWith } from '../helpers/repo.js';
import { skillText, tempDir, writeTree } from '../helpers/tmp.js';

const now = new Date('2026-11-30T00:00:00Z');

function library(files: Record<string, string>): string {
  const dir = tempDir('skillgarden-registry-');
  writeTree(dir, files);
  return dir;
}

/** Rewrites a file and moves its mtime forward, so a refresh within the same clock tick still sees it. */
function rewrite(path: string, text: string, bump = 1): void {
  writeFileSync(path, text);
  const later = new Date(Date.now() + bump * 1000);
  utimesSync(path, later, later);
}

describe('SkillRegistry', () => {
  it('orders by usage score and lists only model- and user-invocable, active skills', async () => {
    const dir = library({
      'skills/alpha/SKILL.md': skillText('alpha'),
      'skills/beta/SKILL.md': skillText('beta'),
      'skills/ops/gamma/SKILL.md': skillText('gamma'),
      'skills/manual/SKILL.md': skillText('manual', 'disable-model-invocation: true\n'),
      'skills/internal/SKILL.md': skillText('internal', 'user-invocable: false\n'),
      'skills/old/SKILL.md': skillText('old'),
    });
    const usage = createMemoryUsageStore({
      gamma: { use_count: 5, last_used_at: '2026-11-29T00:00:00Z' },
      old: { use_count: 50, last_used_at: '2026-10-01T00:00:00Z' },
    });
    const registry = await SkillRegistry.open({ repoDir: dir, usage, now: () => now });
    const reminder = registry.buildReminder();
    const listed = reminder
      .split('\n')
      .filter((l) => l.startsWith('- '))
      .map((l) => l.slice(2, l.indexOf(':')));
    expect(listed).toEqual(['gamma', 'alpha', 'beta']);
    expect(registry.list().map((e) => e.name)).toContain('old');
    expect((await registry.load('old', { sessionId: 's' })).status).toBe('inline');
  });

  it('tracks a renamed skill under its folder name; the frontmatter name is an alias', async () => {
    const dir = library({ 'skills/deploy/SKILL.md': skillText('deploy-old-name') });
    const usage = createMemoryUsageStore();
    const registry = await SkillRegistry.open({ repoDir: dir, usage, now: () => now });
    expect(registry.get('deploy-old-name')?.name).toBe('deploy');
    await registry.recordUsage('deploy-old-name', 'use');
    await registry.recordUsage('deploy', 'view');
    expect(await registry.recordUsage('no-such-skill', 'use')).toBe(false);
    expect([...usage.snapshot().keys()]).toEqual(['deploy']);
    expect(registry.usageOf('deploy')).toMatchObject({ use_count: 1, view_count: 1 });
    const loaded = await registry.load('deploy-old-name', { sessionId: 's' });
    expect(loaded).toMatchObject({ status: 'inline', name: 'deploy' });
  });

  it('loads with ${SKILL_DIR} and ${SESSION_ID} substituted and the allowed tools noted', async () => {
    const body = 'Run ${SKILL_DIR}/scripts/go.sh for ${SESSION_ID} (${HERMES_SKILL_DIR}, ${HERMES_SESSION_ID}).\n';
    const dir = library({ 'skills/go/SKILL.md': skillText('go', 'allowed-tools: Read Bash\n', body) });
    const registry = await SkillRegistry.open({ repoDir: dir, now: () => now });
    const result = await registry.load('go', { sessionId: 'abc' });
    const skillDir = join(dir, 'skills', 'go');
    expect(result.status).toBe('inline');
    if (result.status !== 'inline') return;
    expect(result.content).toContain(`Run ${skillDir}/scripts/go.sh for abc (${skillDir}, abc).`);
    expect(result.content).toContain('Allowed tools while following this skill (no permission prompt needed): Read, Bash');
  });

  it('hands a fork skill to the host runner with a capped spec', async () => {
    const dir = library({
      'skills/research/SKILL.md': skillText('research', 'context: fork\nmodel: haiku\nmax-steps: 40\n', 'Dig into $ARGUMENTS.\n'),
    });
    const seen: unknown[] = [];
    const runner: ForkRunner = { run: async (spec) => (seen.push(spec), `done: ${spec.prompt}`) };
    const registry = await SkillRegistry.open({ repoDir: dir, now: () => now, forkRunner: runner });
    const result = await registry.invokeSlash('/research the cache', { sessionId: 's' });
    expect(result).toMatchObject({ status: 'fork', output: 'done: the cache', spec: { model: 'haiku', maxSteps: 10 } });
    expect(seen).toHaveLength(1);
    if (result.status === 'fork') expect(result.spec.systemPrompt).toContain('Dig into the cache.');
  });

  it('says why a skill in the library is not served, instead of "no skill named"', async () => {
    const dir = library({ 'skills/deploy/SKILL.md': skillText('deploy'), 'skills/readme/SKILL.md': '# No frontmatter\n\nJust text.\n' });
    const registry = await SkillRegistry.open({ repoDir: dir, now: () => now });
    const result = await registry.load('readme', { sessionId: 's' });
    expect(result).toMatchObject({
      status: 'refused',
      message: expect.stringContaining('skill "readme" is in the library but not served: skills/readme/SKILL.md'),
    });
    expect(await registry.load('nothing-like-it', { sessionId: 's' })).toMatchObject({ status: 'not-found' });
  });

  it('answers an unknown name with the closest names, and refuses names with path separators', async () => {
    const dir = library({ 'skills/deploy/SKILL.md': skillText('deploy'), 'skills/debug/SKILL.md': skillText('debug') });
    const registry = await SkillRegistry.open({ repoDir: dir, now: () => now });
    expect(await registry.load('deploi', { sessionId: 's' })).toMatchObject({ status: 'not-found', suggestions: ['deploy'] });
    for (const name of ['../deploy', 'skills/deploy', 'a\\b', '..', '']) {
      expect((await registry.load(name, { sessionId: 's' })).status).toBe('bad-name');
    }
  });

  it('answers an archived skill with the archive date from git and how to restore it', async () => {
    const repo = repoWith({ 'skills/old/SKILL.md': skillText('old'), 'skills/keep/SKILL.md': skillText('keep') });
    mkdirSync(join(repo, 'skills/.archive'));
    git(repo, 'mv', 'skills/old', 'skills/.archive/old');
    git(repo, 'commit', '-q', '-m', 'archive old');
    const registry = await SkillRegistry.open({ repoDir: repo, now: () => now });
    const result = await registry.load('old', { sessionId: 's' });
    expect(result).toMatchObject({ status: 'archived', dateSource: 'git', archivedAt: '2026-05-28T20:26:40.000Z' });
    if (result.status === 'archived') expect(result.message).toContain('skillgarden restore old');
  });

  it('labels the date as a folder time when there is no git history', async () => {
    const dir = library({ 'skills/.archive/old/SKILL.md': skillText('old'), 'skills/keep/SKILL.md': skillText('keep') });
    const registry = await SkillRegistry.open({ repoDir: dir, now: () => now });
    const result = await registry.load('old', { sessionId: 's' });
    expect(result).toMatchObject({ status: 'archived', dateSource: 'mtime' });
    if (result.status === 'archived') expect(result.message).toContain('folder modification time');
  });

  it('slash commands: user-invocable only, arguments substituted, hints listed', async () => {
    const dir = library({
      'skills/fix/SKILL.md': skillText('fix', 'argument-hint: "[issue] [priority]"\n', 'Fix $0 at $1 ($ARGUMENTS).\n'),
      'skills/auto/SKILL.md': skillText('auto', 'user-invocable: false\n'),
    });
    const registry = await SkillRegistry.open({ repoDir: dir, now: () => now });
    const result = await registry.invokeSlash('/fix 42 "very high"', { sessionId: 's' });
    expect(result.status === 'inline' && result.content).toContain('Fix 42 at very high (42 "very high").');
    expect((await registry.invokeSlash('/auto', { sessionId: 's' })).status).toBe('not-invocable');
    expect(registry.slashCommands().map((e) => [e.name, e.argumentHint])).toEqual([['fix', '[issue] [priority]']]);
    expect(registry.buildReminder()).toContain('- fix [issue] [priority]: ');
  });
});

describe('conditional skills', () => {
  const files = {
    'skills/ts/SKILL.md': skillText('ts', 'paths:\n  - "src/**/*.{ts,tsx}"\n'),
    'skills/docs/SKILL.md': skillText('docs', 'paths: "docs/?.md"\n'),
    'skills/all/SKILL.md': skillText('all', 'paths: ["**"]\n'),
    'skills/never/SKILL.md': skillText('never', 'paths: ["no-such-dir/**"]\n'),
    'skills/plain/SKILL.md': skillText('plain'),
  };

  it('start dormant and wake on a matching path; matchingSkills only reports', async () => {
    const dir = library(files);
    const registry = await SkillRegistry.open({ repoDir: dir, now: () => now });
    const listed = () =>
      registry
        .buildReminder()
        .split('\n')
        .filter((l) => l.startsWith('- '))
        .map((l) => l.slice(2, l.indexOf(':')));
    expect(listed()).toEqual(['plain']);
    expect(registry.matchingSkills(['src/a/b.tsx'])).toEqual(['all', 'ts']);
    expect(listed()).toEqual(['plain']);
    expect(registry.activateForPaths(['./src/a/b.tsx', join(dir, 'docs/a.md')])).toEqual(['all', 'docs', 'ts']);
    expect(listed()).toEqual(['all', 'docs', 'plain', 'ts']);
    expect(registry.activateForPaths(['src/x.ts'])).toEqual([]);
    expect(registry.matchingSkills(['/elsewhere/src/a.ts'])).toEqual([]);
    expect(registry.isAwake('never')).toBe(false);
  });
});

describe('refresh', () => {
  it('re-reads only what changed: edits, additions, removals', async () => {
    const dir = library({ 'skills/a/SKILL.md': skillText('a'), 'skills/b/SKILL.md': skillText('b') });
    const registry = await SkillRegistry.open({ repoDir: dir, now: () => now });
    expect(await registry.refresh()).toEqual({ added: [], changed: [], removed: [], invalid: [] });
    rewrite(join(dir, 'skills/a/SKILL.md'), skillText('a', '', 'New body\n'));
    writeTree(dir, { 'skills/cat/c/SKILL.md': skillText('c') });
    rmSync(join(dir, 'skills/b'), { recursive: true });
    expect(await registry.refresh()).toEqual({ added: ['c'], changed: ['a'], removed: ['b'], invalid: [] });
    expect(registry.get('a')?.body).toBe('New body\n');
  });

  it('checks only the files a watcher names, and rediscovers for a file it does not know', async () => {
    const dir = library({ 'skills/a/SKILL.md': skillText('a'), 'skills/b/SKILL.md': skillText('b'), 'skills/empty/x.txt': 'x' });
    const registry = await SkillRegistry.open({ repoDir: dir, now: () => now });
    rewrite(join(dir, 'skills/a/SKILL.md'), skillText('a', '', 'A2\n'));
    rewrite(join(dir, 'skills/b/SKILL.md'), skillText('b', '', 'B2\n'));
    expect((await registry.refresh({ changedFiles: [join(dir, 'skills/a/SKILL.md')] })).changed).toEqual(['a']);
    expect(registry.get('b')?.body).not.toBe('B2\n');
    expect((await registry.refresh()).changed).toEqual(['b']);
    writeFileSync(join(dir, 'skills/empty/SKILL.md'), skillText('empty'));
    expect((await registry.refresh({ changedFiles: [join(dir, 'skills/empty/SKILL.md')] })).added).toEqual(['empty']);
  });

  it('finds a SKILL.md written into a folder that existed without one', async () => {
    const dir = library({ 'skills/a/SKILL.md': skillText('a'), 'skills/empty/notes.txt': 'x' });
    const registry = await SkillRegistry.open({ repoDir: dir, now: () => now });
    writeFileSync(join(dir, 'skills/empty/SKILL.md'), skillText('empty'));
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(dir, 'skills/empty'), later, later);
    expect((await registry.refresh()).added).toEqual(['empty']);
  });

  it('finds a SKILL.md written into a folder without one inside a category folder', async () => {
    const dir = library({
      'skills/cat/c/SKILL.md': skillText('c'),
      'skills/cat/empty/notes.txt': 'x',
      'skills/cat/deep/er/notes.txt': 'x',
    });
    const registry = await SkillRegistry.open({ repoDir: dir, now: () => now });
    expect(await registry.refresh()).toEqual({ added: [], changed: [], removed: [], invalid: [] });
    writeFileSync(join(dir, 'skills/cat/empty/SKILL.md'), skillText('empty'));
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(dir, 'skills/cat/empty'), later, later);
    expect((await registry.refresh()).added).toEqual(['empty']);
  });

  it('keeps serving the last valid version of a skill edited into invalidity, and reports it', async () => {
    const dir = library({ 'skills/a/SKILL.md': skillText('a', '', 'Good body\n') });
    const registry = await SkillRegistry.open({ repoDir: dir, now: () => now });
    rewrite(join(dir, 'skills/a/SKILL.md'), '---\nname: a\ndescription: [broken\n---\nBad body\n');
    const result = await registry.refresh();
    expect(result.invalid.map((i) => i.name)).toEqual(['a']);
    expect(registry.get('a')?.body).toBe('Good body\n');
    expect(registry.findings().length).toBeGreaterThan(0);
    expect(registry.findings().every((f) => f.file === 'skills/a/SKILL.md')).toBe(true);
    rewrite(join(dir, 'skills/a/SKILL.md'), skillText('a', '', 'Fixed body\n'), 2);
    expect((await registry.refresh()).changed).toEqual(['a']);
    expect(registry.findings()).toEqual([]);
  });

  it('survives a SKILL.md deleted between the stat and the read', async () => {
    const dir = library({ 'skills/a/SKILL.md': skillText('a'), 'skills/b/SKILL.md': skillText('b') });
    let armed = false;
    const fs = {
      stat: nodeScanFs.stat,
      readFile(path: string) {
        if (armed && path.endsWith(join('b', 'SKILL.md'))) rmSync(path);
        return nodeScanFs.readFile(path);
      },
    };
    const registry = await SkillRegistry.open({ repoDir: dir, now: () => now, fs });
    rewrite(join(dir, 'skills/b/SKILL.md'), skillText('b', '', 'changed\n'));
    armed = true;
    const result = await registry.refresh();
    expect(result.removed).toEqual(['b']);
    expect(registry.list().map((e) => e.name)).toEqual(['a']);
  });

  it('reports two skills with one name and serves the first', async () => {
    const dir = library({ 'skills/x/dup/SKILL.md': skillText('dup'), 'skills/y/dup/SKILL.md': skillText('dup') });
    const registry = await SkillRegistry.open({ repoDir: dir, now: () => now });
    expect(registry.get('dup')?.relativeDir).toBe('x/dup');
    expect(registry.findings().map((f) => f.code)).toEqual(['library/duplicate-name']);
  });

  it('tells listeners what changed', async () => {
    const dir = library({ 'skills/a/SKILL.md': skillText('a') });
    const registry = await SkillRegistry.open({ repoDir: dir, now: () => now });
    const changes: string[][] = [];
    registry.onChange((c) => changes.push(c.changed));
    await registry.refresh();
    rewrite(join(dir, 'skills/a/SKILL.md'), skillText('a', '', 'v2\n'));
    await registry.refresh();
    expect(changes).toEqual([['a']]);
  });
});
