import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SkillRegistry } from '../../src/registry/index.js';
import { nodeScanFs, type ScanFs } from '../../src/registry/library-scan.js';
import { git } from '../helpers/repo.js';
import { skillText, tempDir, writeTree } from '../helpers/tmp.js';

const now = new Date('2026-11-30T00:00:00Z');
const past = new Date('2026-01-01T00:00:00Z');

/** Everything a registry serves, comparable between two registries. */
function served(registry: SkillRegistry) {
  return {
    list: registry.list().map((e) => JSON.parse(JSON.stringify(e)) as unknown),
    findings: registry.findings(),
    reminder: registry.buildReminder(),
  };
}

/** Opens with the index and without it; both must serve the same library. */
async function expectSameAsCold(dir: string, indexFile: string, fs: ScanFs = nodeScanFs): Promise<void> {
  const indexed = await SkillRegistry.open({ repoDir: dir, now: () => now, indexFile, fs });
  const cold = await SkillRegistry.open({ repoDir: dir, now: () => now, indexFile: false });
  expect(served(indexed)).toEqual(served(cold));
}

/** Sets every file's mtime to the past: nothing is "racy", so the index is trusted where stamps match. */
function age(dir: string, paths: readonly string[]): void {
  for (const path of paths) utimesSync(join(dir, path), past, past);
}

function countingFs(): { fs: ScanFs; reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    fs: {
      stat: nodeScanFs.stat,
      readFile: (path) => {
        reads.push(path);
        return nodeScanFs.readFile(path);
      },
    },
  };
}

const base = {
  'skills/alpha/SKILL.md': skillText('alpha'),
  'skills/beta/SKILL.md': skillText('beta', 'when_to_use: beta work\n'),
  'skills/ops/gamma/SKILL.md': skillText('gamma'),
  'skills/aliased/SKILL.md': skillText('other-name'),
};

describe('the persisted registry index', () => {
  it('is written on a cold load under .git/skillgarden/ and lets the next start skip reading unchanged skills', async () => {
    const dir = tempDir('skillgarden-index-');
    git(dir, 'init', '-q');
    writeTree(dir, base);
    age(dir, Object.keys(base));
    const first = await SkillRegistry.open({ repoDir: dir, now: () => now, indexFile: true });
    expect(existsSync(join(dir, '.git', 'skillgarden', 'registry-index.json'))).toBe(true);
    const { fs, reads } = countingFs();
    const second = await SkillRegistry.open({ repoDir: dir, now: () => now, fs, indexFile: true });
    expect(served(second)).toEqual(served(first));
    // One read: the canary that checks the index was made the way this build makes entries.
    expect(reads.length).toBeLessThanOrEqual(1);
    expect(second.get('other-name')?.name).toBe('aliased');
  });

  it('gives what a cold uncached load gives after each kind of change', async () => {
    const dir = tempDir('skillgarden-index-');
    const indexFile = join(dir, 'cache', 'registry-index.json');
    writeTree(dir, base);
    age(dir, Object.keys(base));
    await expectSameAsCold(dir, indexFile);
    const changes: [string, () => ScanFs | void][] = [
      ['edit, same stamp age', () => writeFileSync(join(dir, 'skills/alpha/SKILL.md'), skillText('alpha', 'argument-hint: "[file]"\n'))],
      ['fresh write', () => writeFileSync(join(dir, 'skills/beta/SKILL.md'), skillText('beta', 'when_to_use: beta work\n'))],
      [
        // Written within moments of the index, so its stamp cannot be trusted (git's "racily clean" entry): on a
        // file system with coarse times an edit in the same tick keeps mtime, size and inode. The stat is frozen here.
        'edit keeping the stamp, right after the index was written',
        () => {
          const path = join(dir, 'skills/beta/SKILL.md');
          const frozen = nodeScanFs.stat(path);
          writeFileSync(path, skillText('beta', 'when_to_use: BETA work\n'));
          return { stat: (p) => (p === path ? frozen : nodeScanFs.stat(p)), readFile: nodeScanFs.readFile };
        },
      ],
      [
        // Same size, modification time set back to what the index saw: the change time still moved.
        'edit of the same size, mtime set back',
        () => {
          const path = join(dir, 'skills/alpha/SKILL.md');
          writeFileSync(path, readFileSync(path, 'utf8').replace('alpha things', 'ALPHA things'));
          utimesSync(path, past, past);
        },
      ],
      ['new skill', () => writeTree(dir, { 'skills/delta/SKILL.md': skillText('delta') })],
      ['new skill in a category', () => writeTree(dir, { 'skills/ops/epsilon/SKILL.md': skillText('epsilon') })],
      ['removed skill', () => rmSync(join(dir, 'skills/delta'), { recursive: true })],
      ['broken frontmatter', () => writeFileSync(join(dir, 'skills/alpha/SKILL.md'), '---\nname: [\n---\nbody\n')],
      ['fixed again', () => writeFileSync(join(dir, 'skills/alpha/SKILL.md'), skillText('alpha'))],
      ['renamed folder', () => renameSync(join(dir, 'skills/ops/gamma'), join(dir, 'skills/gamma'))],
      ['duplicate name', () => writeTree(dir, { 'skills/ops/alpha/SKILL.md': skillText('alpha') })],
      ['touched, same bytes', () => utimesSync(join(dir, 'skills/beta/SKILL.md'), now, now)],
      ['index from another build', () => writeFileSync(indexFile, '{"version":0}')],
      ['index not JSON', () => writeFileSync(indexFile, '{')],
    ];
    for (const [label, change] of changes) {
      const fs = change() ?? nodeScanFs;
      await expect(expectSameAsCold(dir, indexFile, fs), label).resolves.toBeUndefined();
    }
  });

  it('drops an index whose entries this build would make differently (the canary)', async () => {
    const dir = tempDir('skillgarden-index-');
    const indexFile = join(dir, 'registry-index.json');
    writeTree(dir, base);
    age(dir, Object.keys(base));
    await SkillRegistry.open({ repoDir: dir, now: () => now, indexFile });
    // Forge what an older build might have stored: a different description for an unchanged file.
    const index = JSON.parse(readFileSync(indexFile, 'utf8')) as { skills: { entry?: { description: string } }[] };
    for (const skill of index.skills) if (skill.entry) skill.entry.description = 'stale';
    writeFileSync(indexFile, JSON.stringify(index));
    await expectSameAsCold(dir, indexFile);
  });

  it('equals a cold load after random sequences of edits, additions and removals', async () => {
    const names = ['a', 'b', 'c', 'd'];
    const step = fc.record({
      kind: fc.constantFrom('write', 'remove', 'touch', 'age'),
      name: fc.constantFrom(...names),
      category: fc.boolean(),
      text: fc.constantFrom('', 'argument-hint: x\n', 'model: m\n', 'broken'),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        const dir = tempDir('skillgarden-index-');
        const indexFile = join(dir, 'index.json');
        mkdirSync(join(dir, 'skills'), { recursive: true });
        for (const { kind, name, category, text } of steps) {
          const rel = category ? `skills/cat/${name}` : `skills/${name}`;
          const file = join(dir, rel, 'SKILL.md');
          if (kind === 'write') writeTree(dir, { [`${rel}/SKILL.md`]: text === 'broken' ? '---\n: :\n' : skillText(name, text) });
          else if (kind === 'remove') rmSync(join(dir, rel), { recursive: true, force: true });
          else if (existsSync(file)) utimesSync(file, kind === 'age' ? past : now, kind === 'age' ? past : now);
          await expectSameAsCold(dir, indexFile);
        }
      }),
      { numRuns: 25 },
    );
  });
});
