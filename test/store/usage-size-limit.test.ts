import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { maxUsageFileBytes, readUsageSnapshot } from '../../src/store/usage-files.js';
import { tempDir } from '../helpers/tmp.js';

describe('usage files over the size limit', () => {
  it('are reported and skipped before they are read; the other writers still count', () => {
    const dir = tempDir('skillgarden-usage-');
    mkdirSync(join(dir, '.skillgarden/usage'), { recursive: true });
    const ok = { version: 1, writer: 'ok', skills: { deploy: { use_count: 2 } } };
    writeFileSync(join(dir, '.skillgarden/usage/ok.json'), JSON.stringify(ok));
    const big = `{"version": 1, "writer": "big", "skills": {"deploy": {"use_count": 5}}, "pad": "${'x'.repeat(maxUsageFileBytes)}"}`;
    writeFileSync(join(dir, '.skillgarden/usage/big.json'), big);
    const snapshot = readUsageSnapshot(dir, { skillsDir: 'skills', now: new Date('2026-12-01T00:00:00Z') });
    expect(snapshot.totals.get('deploy')?.use_count).toBe(2);
    expect(snapshot.quarantined).toEqual(['.skillgarden/usage/big.json']);
    expect(snapshot.findings.map((f) => f.code)).toEqual(['usage/too-large']);
  });
});
