import { lstatSync, readFileSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isSkillgardenError } from '../../src/core/errors.js';
import { applyIndexChanges, buildIndexEntry, parseIndex, serializeIndex } from '../../src/ledger/git-index.js';
import { blobId } from '../../src/store/files.js';
import { git, makeRepo } from './git-repo.js';

describe('git index codec', () => {
  let dir: string;
  let cleanup: () => void;
  const indexPath = () => join(dir, '.git', 'index');

  beforeEach(() => {
    ({ dir, cleanup } = makeRepo());
    mkdirSync(join(dir, 'skills', 'ünïcode'), { recursive: true });
    mkdirSync(join(dir, 'skills', 'a', 'scripts'), { recursive: true });
    writeFileSync(join(dir, 'skills', 'ünïcode', 'SKILL.md'), 'u\n');
    writeFileSync(join(dir, 'skills', 'a', 'scripts', 'run.sh'), '#!/bin/sh\n');
    chmodSync(join(dir, 'skills', 'a', 'scripts', 'run.sh'), 0o755);
    writeFileSync(join(dir, `${'long-name-'.repeat(20)}.md`), 'long\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'seed');
  });
  afterEach(() => cleanup());

  it('reads what git wrote and writes what git reads', () => {
    const before = git(dir, 'ls-files', '-s');
    const index = parseIndex(readFileSync(indexPath()), indexPath());
    expect(index.entries.map((e) => e.path)).toEqual(git(dir, 'ls-files', '-z').split('\0').filter(Boolean));
    writeFileSync(indexPath(), serializeIndex(index));
    expect(git(dir, 'ls-files', '-s')).toBe(before);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('adds, replaces and removes entries in git order', () => {
    const path = 'skills/b/SKILL.md';
    mkdirSync(join(dir, 'skills', 'b'));
    writeFileSync(join(dir, path), 'b\n');
    const entry = buildIndexEntry({
      path,
      oid: blobId(Buffer.from('b\n')),
      mode: '100644',
      stat: lstatSync(join(dir, path), { bigint: true }),
    });
    const index = parseIndex(readFileSync(indexPath()), indexPath());
    const changed = applyIndexChanges(
      index,
      new Map([
        [path, entry],
        ['skills/a/scripts/run.sh', null],
      ]),
    );
    writeFileSync(indexPath(), serializeIndex(changed));
    expect(git(dir, 'ls-files')).toContain(path);
    expect(git(dir, 'ls-files')).not.toContain('run.sh');
    expect(git(dir, 'status', '--porcelain').split('\n').filter(Boolean).sort()).toEqual([
      '?? skills/a/',
      'A  skills/b/SKILL.md',
      'D  skills/a/scripts/run.sh',
    ]);
  });

  it('keeps version 3 entries with extended flags', () => {
    writeFileSync(join(dir, 'later.md'), 'later\n');
    git(dir, 'add', '--intent-to-add', 'later.md');
    const buffer = readFileSync(indexPath());
    expect(buffer.readUInt32BE(4)).toBe(3);
    const before = git(dir, 'ls-files', '-s');
    writeFileSync(indexPath(), serializeIndex(parseIndex(buffer, indexPath())));
    expect(git(dir, 'ls-files', '-s')).toBe(before);
  });

  it.each([
    ['version 4', ['update-index', '--index-version', '4']],
    ['a split index', ['update-index', '--split-index']],
  ])('refuses %s it cannot update safely', (_name, args) => {
    git(dir, ...args);
    const error = (() => {
      try {
        parseIndex(readFileSync(indexPath()), indexPath());
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(isSkillgardenError(error, 'ledger/unsupported-index')).toBe(true);
  });
});
