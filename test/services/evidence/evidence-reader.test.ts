import { appendFileSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { EvidenceReader, runEvidence } from '../../../src/services/evidence/run-evidence.js';
import { SessionCollector } from '../../../src/store/transcripts/collector.js';
import { tempDir } from '../../helpers/tmp.js';
import { plantSessions } from '../../helpers/transcript-plant.js';
import { dbMigrate, oncallRotate, plantLibrary, plantedSessions, releaseCut } from './plant.js';

const now = new Date('2026-11-01T00:00:00Z');

/** Runs `read` and counts the transcript files it read. */
async function counting<T>(read: () => Promise<T>): Promise<[T, number]> {
  const finish = vi.spyOn(SessionCollector.prototype, 'finish');
  try {
    const value = await read();
    return [value, finish.mock.calls.length];
  } finally {
    finish.mockRestore();
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

describe('EvidenceReader (skill_evidence over MCP): each transcript read once per server', () => {
  it('reads every file on the first call, none on the next, and again only a file whose size or time changed', async () => {
    const dir = await plantLibrary({ 'release-cut': releaseCut, 'db-migrate': dbMigrate, 'oncall-rotate': oncallRotate });
    const root = tempDir('sg-evidence-reader-');
    const sessions = plantedSessions();
    plantSessions(root, 'claude-code', sessions.claude);
    plantSessions(root, 'codex', sessions.codex);
    const files = filesUnder(root);
    const options = { repoDir: dir, transcripts: [root], now };
    const reader = new EvidenceReader();

    const [first, readFirst] = await counting(() => reader.run(options));
    expect(readFirst).toBe(files.length);
    expect(first).toEqual(await runEvidence(options));

    const [second, readSecond] = await counting(() => reader.run(options));
    expect(readSecond).toBe(0);
    expect(second).toEqual(first);

    // A Claude Code file grows by a copy of its own first session under another id: read again, and it counts.
    const grown = files.find((f) => f.endsWith('.jsonl') && readFileSync(f, 'utf8').includes('"sessionId"')) as string;
    const lines = readFileSync(grown, 'utf8').trimEnd().split('\n');
    const id = (JSON.parse(lines[0] as string) as { sessionId: string }).sessionId;
    appendFileSync(grown, lines.map((l) => l.replaceAll(id, `${id}-again`)).join('\n') + '\n');
    const [third, readThird] = await counting(() => reader.run(options));
    expect(readThird).toBe(1);
    expect(third.sessions).toBeGreaterThan(first.sessions);
    expect(third).toEqual(await runEvidence(options));
  });
});
