import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSkillgardenError } from '../../src/core/errors.js';
import { syncRepository } from '../../src/services/sync.js';
import { git } from '../helpers/repo.js';
import { skillText, tempDir, writeTree } from '../helpers/tmp.js';

/** A bare `file://` remote holding one library commit, and two machines that cloned it. */
function twoMachines(): { remote: string; a: string; b: string } {
  const remote = join(tempDir('skillgarden-remote-'), 'library.git');
  git(tempDir(), 'init', '-q', '--bare', '-b', 'main', remote);
  const seed = tempDir('skillgarden-seed-');
  git(seed, 'init', '-q', '-b', 'main');
  configure(seed);
  writeTree(seed, { 'skills/shared/SKILL.md': skillText('shared'), 'skills/other/SKILL.md': skillText('other') });
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'initial library');
  git(seed, 'push', '-q', `file://${remote}`, 'main');
  const clone = (name: string) => {
    const dir = join(tempDir(`skillgarden-${name}-`), 'lib');
    git(tempDir(), 'clone', '-q', `file://${remote}`, dir);
    configure(dir);
    return dir;
  };
  return { remote, a: clone('a'), b: clone('b') };
}

function configure(dir: string): void {
  git(dir, 'config', 'user.name', 'Ada Test');
  git(dir, 'config', 'user.email', 'ada@example.com');
}

function commit(dir: string, files: Record<string, string>, skill: string, action = 'patch'): void {
  writeTree(dir, files);
  git(dir, 'add', '-A');
  git(
    dir,
    'commit',
    '-q',
    '-m',
    `skill(${action}): ${skill} — change\n\nSkill-Action: ${action}\nSkill-Name: ${skill}\nSkill-Actor: agent\nSkill-Source: background`,
  );
}

const log = (dir: string) => git(dir, 'log', '--format=%s', 'main').trim().split('\n');

describe('syncRepository', () => {
  it('replays local ledger commits on the moved remote and pushes; trailers survive', async () => {
    const { a, b } = twoMachines();
    commit(
      a,
      {
        'skills/shared/SKILL.md': skillText('shared', '', 'From A.\n'),
        '.skillgarden/usage/a.json': '{"version":1,"writer":"a","skills":{}}\n',
      },
      'shared',
    );
    commit(
      b,
      {
        'skills/other/SKILL.md': skillText('other', '', 'From B.\n'),
        '.skillgarden/usage/b.json': '{"version":1,"writer":"b","skills":{}}\n',
      },
      'other',
    );
    expect(await syncRepository({ repoDir: a })).toMatchObject({ pulled: 0, replayed: 0, pushed: 1, attempts: 1 });
    expect(await syncRepository({ repoDir: b })).toMatchObject({ pulled: 1, replayed: 1, pushed: 1, attempts: 1 });
    expect(await syncRepository({ repoDir: a })).toMatchObject({ pulled: 1, replayed: 0, pushed: 0 });
    expect(log(a)).toEqual(log(b));
    expect(log(b)).toEqual(['skill(patch): other — change', 'skill(patch): shared — change', 'initial library']);
    expect(git(b, 'log', '-1', '--format=%(trailers:key=Skill-Name,valueonly)').trim()).toBe('other');
    expect(existsSync(join(a, '.skillgarden/usage/b.json'))).toBe(true);
  });

  it('stops on a real conflict, names the file, and leaves the branch as it was', async () => {
    const { a, b } = twoMachines();
    commit(a, { 'skills/shared/SKILL.md': skillText('shared', '', 'A says this.\n') }, 'shared');
    commit(b, { 'skills/shared/SKILL.md': skillText('shared', '', 'B says that.\n') }, 'shared');
    await syncRepository({ repoDir: a });
    const before = git(b, 'rev-parse', 'HEAD').trim();
    const error = await syncRepository({ repoDir: b }).catch((e: unknown) => e);
    expect(isSkillgardenError(error, 'sync/conflict')).toBe(true);
    if (!isSkillgardenError(error)) return;
    expect(error.data.files).toEqual(['skills/shared/SKILL.md']);
    expect(error.message).toContain('skills/shared/SKILL.md');
    expect(git(b, 'rev-parse', 'HEAD').trim()).toBe(before);
    expect(git(b, 'status', '--porcelain')).toBe('');
    expect(existsSync(join(b, '.git', 'rebase-merge')) || existsSync(join(b, '.git', 'rebase-apply'))).toBe(false);
    expect(git(b, 'symbolic-ref', '--short', 'HEAD').trim()).toBe('main');
  });

  it('retries when the remote moves between the fetch and the push', async () => {
    const { a, b } = twoMachines();
    commit(a, { 'skills/shared/SKILL.md': skillText('shared', '', 'From A.\n') }, 'shared');
    commit(b, { 'skills/other/SKILL.md': skillText('other', '', 'From B.\n') }, 'other');
    // B's first push is beaten by A's: a pre-push hook pushes A's commit first, once.
    const flag = join(tempDir(), 'raced');
    const hook = join(b, '.git', 'hooks', 'pre-push');
    writeFileSync(
      hook,
      `#!/bin/sh\nif [ ! -e '${flag}' ]; then touch '${flag}'; env -u GIT_DIR -u GIT_WORK_TREE -u GIT_INDEX_FILE git -C '${a}' push -q origin main; fi\nexit 0\n`,
    );
    chmodSync(hook, 0o755);
    const result = await syncRepository({ repoDir: b });
    expect(result).toMatchObject({ attempts: 2, pulled: 1, pushed: 1 });
    expect(log(b)).toEqual(['skill(patch): other — change', 'skill(patch): shared — change', 'initial library']);
  });

  it('refuses a dirty tree, naming the files, and changes nothing', async () => {
    const { b } = twoMachines();
    writeFileSync(join(b, 'skills/shared/SKILL.md'), 'half-edited');
    const error = await syncRepository({ repoDir: b }).catch((e: unknown) => e);
    expect(isSkillgardenError(error, 'sync/dirty')).toBe(true);
    expect((error as Error).message).toContain('skills/shared/SKILL.md');
  });

  it('pushes a branch the remote does not have yet, and says so when there is nothing to do', async () => {
    const { b } = twoMachines();
    git(b, 'switch', '-q', '-c', 'laptop');
    commit(b, { 'skills/other/SKILL.md': skillText('other', '', 'B.\n') }, 'other');
    expect(await syncRepository({ repoDir: b })).toMatchObject({ branch: 'laptop', pushed: 1 });
    expect(await syncRepository({ repoDir: b })).toMatchObject({ pulled: 0, pushed: 0 });
  });

  it('fails clearly when the remote is unreachable', async () => {
    const { b } = twoMachines();
    git(b, 'remote', 'set-url', 'origin', join(tempDir(), 'gone.git'));
    const error = await syncRepository({ repoDir: b }).catch((e: unknown) => e);
    expect(isSkillgardenError(error, 'sync/fetch-failed')).toBe(true);
  });
});
