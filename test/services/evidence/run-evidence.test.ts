import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEvidence } from '../../../src/services/evidence/run-evidence.js';
import { tempDir } from '../../helpers/tmp.js';
import { plantSessions } from '../../helpers/transcript-plant.js';
import { dbMigrate, oncallRotate, plantLibrary, plantedSessions, releaseCut } from './plant.js';

describe('runEvidence on planted Claude Code and Codex sessions', () => {
  it('prints', async () => {
    const dir = await plantLibrary({ 'release-cut': releaseCut, 'db-migrate': dbMigrate, 'oncall-rotate': oncallRotate });
    const root = tempDir('sg-evidence-transcripts-');
    const { claude, codex } = plantedSessions();
    plantSessions(root, 'claude-code', claude);
    plantSessions(root, 'codex', codex);
    writeFileSync(join(root, 'notes.jsonl'), '{"foo":1}\n');
    const report = await runEvidence({ repoDir: dir, transcripts: [root], now: new Date('2026-11-01T00:00:00Z') });
    console.log(JSON.stringify(report, null, 2));
    expect(report.sessions).toBe(20);
  });
});
