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

/** Everything a registry serves, comparable between two registries: Layer 1 first (before any body is read), then Layer 2. */
async function served(registry: SkillRegistry, names: readonly string[]) {
  const reminder = registry.buildReminder();
  const findings = registry.findings();
  const loads = [];
  for (const name of names) loads.push(await registry.load(name, { sessionId: 's' }));
  return { reminder, findings, loads, list: registry.list().map((e) => JSON.parse(JSON.stringify(e)) as unknown) };
}

/** The names to load: every skill of a registry that read each file itself, and one no skill has. */
function namesOf(registry: SkillRegistry): string[] {
  return [...registry.list().map((e) => e.name), 'no-such-skill'];
}

/** Opens with the index and without it; both must serve the same library. */
async function expectSameAsCold(dir: string, indexFile: string, fs: ScanFs = nodeScanFs): Promise<void> {
  const indexed = await SkillRegistry.open({ repoDir: dir, now: () => now, indexFile, fs });
  const cold = await SkillRegistry.open({ repoDir: dir, now: () => now, indexFile: false });
  const names = namesOf(cold);
  expect(await served(indexed, names)).toEqual(await served(cold, names));
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
    second.buildReminder();
    // One read: the canary that checks the index was made the way this build makes entries. Bodies are not read yet.
    expect(reads.length).toBeLessThanOrEqual(1);
    expect(await served(second, namesOf(first))).toEqual(await served(first, namesOf(first)));
    expect(second.get('other-name')?.name).toBe('aliased');
    const index = readFileSync(join(dir, '.git', 'skillgarden', 'registry-index.json'), 'utf8');
    expect(index).toContain('Does alpha things.');
    expect(index).not.toContain('Steps.');
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
      // A folder sorting before skills/beta takes the name, and is invalid: a cold load serves no beta at all.
      ["the name's first folder by path, broken", () => writeTree(dir, { 'skills/a-cat/beta/SKILL.md': '---\nname: [\n---\nbody\n' })],
      ['index from another build', () => writeFileSync(indexFile, '{"version":0}')],
      ['index not JSON', () => writeFileSync(indexFile, '{')],
    ];
    for (const [label, change] of changes) {
      const fs = change() ?? nodeScanFs;
      await expect(expectSameAsCold(dir, indexFile, fs), label).resolves.toBeUndefined();
    }
  });

  it('reads a restored body from the bytes its entry was built from: a file changed since the start is read whole first', async () => {
    const changes: [string, string, (dir: string) => void][] = [
      [
        'body edited',
        'alpha',
        (dir) => writeFileSync(join(dir, 'skills/alpha/SKILL.md'), skillText('alpha', '', '# alpha\n\nNew steps.\n')),
      ],
      [
        'frontmatter and body edited, same size, mtime set back',
        'beta',
        (dir) => {
          const path = join(dir, 'skills/beta/SKILL.md');
          writeFileSync(path, readFileSync(path, 'utf8').replace('beta work', 'BETA work').replace('Steps.', 'STEPS.'));
          utimesSync(path, past, past);
        },
      ],
      ['broken', 'gamma', (dir) => writeFileSync(join(dir, 'skills/ops/gamma/SKILL.md'), '---\nname: [\n---\nbody\n')],
      ['removed', 'alpha', (dir) => rmSync(join(dir, 'skills/alpha'), { recursive: true })],
    ];
    for (const [label, name, change] of changes) {
      for (const via of ['load', 'get', 'list'] as const) {
        const dir = tempDir('skillgarden-index-');
        const indexFile = join(dir, 'registry-index.json');
        writeTree(dir, base);
        age(dir, Object.keys(base));
        await SkillRegistry.open({ repoDir: dir, now: () => now, indexFile });
        const restored = await SkillRegistry.open({ repoDir: dir, now: () => now, indexFile });
        const seen: string[][] = [];
        restored.onChange((c) => seen.push([...c.changed, ...c.removed]));
        change(dir);
        const cold = await SkillRegistry.open({ repoDir: dir, now: () => now, indexFile: false });
        const expected = { load: await cold.load(name, { sessionId: 's' }), entry: cold.get(name) };
        if (via === 'get') expect(restored.get(name), `${label} (get)`).toEqual(expected.entry);
        if (via === 'list')
          expect(
            restored.list().find((e) => e.name === name),
            `${label} (list)`,
          ).toEqual(expected.entry);
        expect(await restored.load(name, { sessionId: 's' }), `${label} (${via})`).toEqual(expected.load);
        expect(restored.get(name), label).toEqual(expected.entry);
        // The change was seen (and told) as a refresh sees one, not only served.
        if (label !== 'broken') expect(seen.flat(), label).toEqual([name]);
      }
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
