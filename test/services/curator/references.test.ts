import { describe, expect, it } from 'vitest';
import { findReferencedNames } from '../../../src/services/curator/references.js';
import { tempDir, writeTree } from '../../helpers/tmp.js';

describe('findReferencedNames', () => {
  it('finds whole-word mentions in files matched by the globs, whether a glob names a folder, a pattern or one file', () => {
    const dir = tempDir();
    writeTree(dir, {
      'cron/nightly.yaml': 'skill: backup-check\n',
      'jobs/deep/weekly.yml': 'run deploy-notes then stop\n',
      'one.txt': 'uses report-writer\n',
      'skills/other/SKILL.md': 'mentions backup-check-extended and ghost\n',
    });
    const names = new Set(['backup-check', 'deploy-notes', 'report-writer', 'ghost']);
    const { referenced, files } = findReferencedNames(dir, ['cron/*.yaml', 'jobs/**', 'one.txt'], names);
    expect([...referenced].sort()).toEqual(['backup-check', 'deploy-notes', 'report-writer']);
    expect(files.sort()).toEqual(['cron/nightly.yaml', 'jobs/deep/weekly.yml', 'one.txt']);
  });
});
