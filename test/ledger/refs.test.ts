import { describe, expect, it } from 'vitest';
import { isValidRefName } from '../../src/ledger/refs.js';
import { checkPath } from '../../src/ledger/paths.js';
import { isSkillgardenError } from '../../src/core/errors.js';
import { git, makeRepo } from './git-repo.js';

const names: [string, boolean][] = [
  ['refs/tags/skillgarden/run/2026-11-29T23-00-00Z-3f9a', true],
  ['refs/heads/main', true],
  ['refs/tags/a..b', false],
  ['refs/tags/a b', false],
  ['refs/tags/a~1', false],
  ['refs/tags/x.lock', false],
  ['refs/tags/.hidden', false],
  ['refs/tags/a//b', false],
  ['refs/tags/a@{1}', false],
  ['refs/tags/end.', false],
  ['refs/tags/end/', false],
];

describe('isValidRefName agrees with git check-ref-format', () => {
  const { dir, cleanup } = makeRepo();
  it.each(names)('%s → %s', (name, valid) => {
    expect(isValidRefName(name)).toBe(valid);
    const gitSays = (() => {
      try {
        git(dir, 'check-ref-format', name);
        return true;
      } catch {
        return false;
      }
    })();
    expect(gitSays).toBe(valid);
  });
  it('cleans up', () => cleanup());
});

describe('checkPath', () => {
  it.each(['skills/a/SKILL.md', '.skillgarden/state.json', 'skills/ünïcode/x.md'])('accepts %s', (path) => {
    expect(() => checkPath(path)).not.toThrow();
  });
  it.each(['', '/abs', 'C:/x', 'a/../b', './a', 'a/', '.git', 'a/.Git/b', 'a\\b', 'a\0b'])('refuses %j', (path) => {
    let error: unknown;
    try {
      checkPath(path);
    } catch (e) {
      error = e;
    }
    expect(isSkillgardenError(error, 'ledger/bad-path')).toBe(true);
  });
});
