import { cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { applyDetected, curatorDetectOptions } from '../../../src/services/curator/detect-patterns.js';
import { readRunTranscripts } from '../../../src/services/curator/evidence-pass.js';
import { readLibrary } from '../../../src/services/curator/read-library.js';
import { runDetect } from '../../../src/services/detect.js';
import { runEvidence } from '../../../src/services/evidence/run-evidence.js';
import { SessionCollector } from '../../../src/store/transcripts/collector.js';
import { corpusSkillsRoot, hasCorpus, transcriptsRoot } from '../../helpers/corpus.js';
import { git, repoWith } from '../../helpers/repo.js';

const now = new Date('2026-11-01T00:00:00Z');

describe.skipIf(!hasCorpus)('the curator reads its transcripts once, for patterns and evidence', () => {
  it('each file read once; the patterns and the evidence equal those of `detect` and `evidence` run one after the other', async () => {
    const dir = repoWith({});
    const superpowers = join(corpusSkillsRoot, 'obra__superpowers', 'skills');
    for (const name of readdirSync(superpowers)) cpSync(join(superpowers, name), join(dir, 'skills', name), { recursive: true });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'the superpowers library');
    // Inside the repository `detect` names a file from the repository, `evidence` from the folder it was found under.
    cpSync(join(transcriptsRoot, 'daaain__claude-code-log'), join(dir, 'sessions'), { recursive: true });
    const options = { repoDir: dir, now, transcripts: [transcriptsRoot, 'sessions', 'no-such-folder/*.jsonl'] };

    const reads = vi.spyOn(SessionCollector.prototype, 'finish');
    const once = await readRunTranscripts(options, await readLibrary(dir, { now }));
    const filesRead = reads.mock.calls.length;
    reads.mockRestore();

    const snapshot = await readLibrary(dir, { now });
    const detected = applyDetected(await runDetect(await curatorDetectOptions(options, snapshot, options.transcripts)), options, snapshot);
    const evidence = await runEvidence({ repoDir: dir, transcripts: options.transcripts, now });

    expect(once.detected?.files).toBeGreaterThan(5);
    expect(filesRead).toBe(once.detected?.files);
    expect(once.detected).toEqual(detected);
    expect(once.evidence?.sessions).toBeGreaterThan(5);
    expect(once.evidence).toEqual(evidence);
    expect(once.detected?.skipped.map((s) => s.file)).toContain('sessions/test/test_data/edge_cases.jsonl');
    expect(once.evidence?.skipped.map((s) => s.file)).toContain('test/test_data/edge_cases.jsonl');
    // A pattern that matched nothing is named as given: no absolute path of the checkout reaches a report.
    expect(once.evidence?.skipped.map((s) => s.file)).toContain('no-such-folder/*.jsonl');
    expect(JSON.stringify(once.evidence)).not.toContain(dir);
  });
});
