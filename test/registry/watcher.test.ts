import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SkillRegistry, watchSkills } from '../../src/registry/index.js';
import { isRelevant } from '../../src/registry/watcher.js';
import { skillText, tempDir, writeTree } from '../helpers/tmp.js';

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return check();
}

describe('isRelevant', () => {
  it.each([
    ['change', 'deploy/SKILL.md', true],
    ['rename', 'cat/deploy/SKILL.md', true],
    ['change', 'deploy/references/notes.md', false],
    ['rename', 'deploy/scripts/run.sh', false],
    ['rename', 'deploy', true],
    ['rename', '.archive/deploy', true],
    ['change', 'deploy', false],
    ['rename', null, true],
  ])('%s %s → %s', (eventType, filename, expected) => {
    expect(isRelevant(eventType, filename)).toBe(expected);
  });
});

describe('hot reload', () => {
  it('shows an edit in buildReminder() after the debounce', async () => {
    const dir = tempDir('skillgarden-watch-');
    writeTree(dir, { 'skills/a/SKILL.md': skillText('a') });
    const registry = await SkillRegistry.open({ repoDir: dir });
    const watcher = registry.watch();
    try {
      writeFileSync(join(dir, 'skills/a/SKILL.md'), skillText('a').replace('Does a things.', 'Freshly edited.'));
      // 500 ms is the target (300 ms debounce + the refresh); the margin is for a loaded shared machine. bench/registry.ts measures it.
      expect(await waitFor(() => registry.buildReminder().includes('Freshly edited.'), 3_000)).toBe(true);
    } finally {
      watcher.close();
    }
  });

  it('coalesces thousands of events into one refresh and stops cleanly', async () => {
    const dir = tempDir('skillgarden-watch-');
    const files: Record<string, string> = {};
    for (let i = 0; i < 100; i++) files[`skills/s${i}/SKILL.md`] = skillText(`s${i}`);
    writeTree(dir, files);
    let refreshes = 0;
    const watcher = watchSkills(join(dir, 'skills'), async () => void refreshes++, { maxWaitMs: 60_000 });
    try {
      for (let round = 0; round < 20; round++) {
        for (let i = 0; i < 100; i++) writeFileSync(join(dir, `skills/s${i}/SKILL.md`), skillText(`s${i}`, `version: 0.${round}.0\n`));
      }
      expect(await waitFor(() => refreshes > 0, 5_000)).toBe(true);
      await watcher.idle();
      await new Promise((r) => setTimeout(r, 400));
      expect(refreshes).toBe(1);
    } finally {
      watcher.close();
    }
    writeFileSync(join(dir, 'skills/s0/SKILL.md'), skillText('s0', 'version: 9.0.0\n'));
    await new Promise((r) => setTimeout(r, 500));
    expect(refreshes).toBe(1);
  });

  it('tolerates a skills folder that does not exist yet', async () => {
    const errors: unknown[] = [];
    const watcher = watchSkills(join(tempDir(), 'no-skills-yet'), async () => undefined, { onError: (e) => errors.push(e) });
    expect(errors).toHaveLength(1);
    watcher.close();
    await watcher.idle();
  });

  it('ignores support-file changes', async () => {
    const dir = tempDir('skillgarden-watch-');
    writeTree(dir, { 'skills/a/SKILL.md': skillText('a'), 'skills/a/references/x.md': 'x' });
    let refreshes = 0;
    const watcher = watchSkills(join(dir, 'skills'), async () => void refreshes++, { debounceMs: 50 });
    try {
      writeFileSync(join(dir, 'skills/a/references/x.md'), 'y');
      await new Promise((r) => setTimeout(r, 300));
      expect(refreshes).toBe(0);
    } finally {
      watcher.close();
    }
  });
});
