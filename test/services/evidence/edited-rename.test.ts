import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEvidence } from '../../../src/services/evidence/run-evidence.js';
import { git } from '../../helpers/repo.js';
import { tempDir } from '../../helpers/tmp.js';
import { plantSessions } from '../../helpers/transcript-plant.js';
import { dbMigrate, plantLibrary, plantedSessions, releaseCut } from './plant.js';

describe('evidence across a rename made by hand in one commit', () => {
  it('git mv and the edit of name: together: the renamed skill keeps the loads and misses of its old name', async () => {
    const dir = await plantLibrary({ 'db-migrate': dbMigrate, 'release-cut': releaseCut });
    git(dir, 'mv', 'skills/db-migrate', 'skills/migrate-db');
    writeFileSync(join(dir, 'skills/migrate-db/SKILL.md'), dbMigrate.replace('name: db-migrate', 'name: migrate-db'));
    git(dir, 'commit', '-qam', 'rename db-migrate to migrate-db');
    const sessions = plantedSessions();
    const root = tempDir('sg-evidence-transcripts-');
    plantSessions(root, 'claude-code', sessions.claude);
    plantSessions(root, 'codex', sessions.codex);
    const report = await runEvidence({ repoDir: dir, transcripts: [root], now: new Date('2026-11-01T00:00:00Z') });
    // Every planted session offered it (by history, under either name) and the loads of db-migrate count.
    expect(report.skills.find((s) => s.name === 'migrate-db')).toMatchObject({ offered: 19, loaded: 5, missed: 5 });
    expect(report.skipped.some((s) => s.skill === 'db-migrate')).toBe(false);
  });
});
