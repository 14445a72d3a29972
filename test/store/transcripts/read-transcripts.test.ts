import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionCollector } from '../../../src/store/transcripts/collector.js';
import { expandTranscriptPaths } from '../../../src/store/transcripts/expand-paths.js';
import { readTranscriptFiles } from '../../../src/store/transcripts/read-transcripts.js';
import { transcriptsRoot } from '../../helpers/corpus.js';
import { tempDir } from '../../helpers/tmp.js';

async function readAll(files: readonly string[], concurrency: number, concurrentBytes?: number) {
  const out = [];
  const options = concurrentBytes === undefined ? { concurrency } : { concurrency, concurrentBytes };
  for await (const result of readTranscriptFiles(files, options)) out.push(result);
  return out;
}

/** A Claude Code session of `calls` Bash calls. */
function session(id: string, calls: number): string {
  return Array.from(
    { length: calls },
    (_, i) =>
      `{"type":"assistant","sessionId":"${id}","message":{"role":"assistant","content":[{"type":"tool_use","id":"${id}-${i}","name":"Bash","input":{"command":"git status"}}]}}`,
  ).join('\n');
}

describe('readTranscriptFiles in parallel batches', () => {
  it('yields what reading one file after another yields, in the order of the files', async () => {
    const dir = tempDir();
    // A large file first and small ones after: read at once, the small ones finish first.
    const files = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19].map((n) => {
      const path = join(dir, `${n}.jsonl`);
      writeFileSync(path, session(`s${n}`, n === 0 ? 20_000 : 1 + (n % 4)));
      return path;
    });
    const corpus = (await expandTranscriptPaths([transcriptsRoot], { cwd: transcriptsRoot })).files;
    const all = [...files, join(dir, 'gone.jsonl'), ...corpus];
    const parallel = await readAll(all, 16);
    expect(parallel.map((r) => r.file)).toEqual(all);
    expect(parallel).toEqual(await readAll(all, 1));
    expect(parallel[0]?.sessions[0]?.calls).toHaveLength(20_000);
    expect(parallel[20]?.skipped[0]?.reason).toBe('could not read the file (ENOENT)');
    // Real transcripts too: the full corpus, or the fixture set in a clone without it (3 files).
    expect(corpus.length).toBeGreaterThan(0);
  });
});

describe('readTranscriptFiles under a byte budget', () => {
  it('yields what reading one file after another yields, whatever the budget (large files read alone)', async () => {
    const dir = tempDir();
    // Large and small files mixed, one over the budget by itself: it is read alone, the small ones around it together.
    const files = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => {
      const path = join(dir, `${n}.jsonl`);
      writeFileSync(path, session(`s${n}`, n % 3 === 0 ? 3_000 : 1 + (n % 4)));
      return path;
    });
    const all = [...files, join(dir, 'gone.jsonl')];
    const one = await readAll(all, 1);
    for (const budget of [0, 1_000, 200_000, 1 << 30]) expect(await readAll(all, 16, budget)).toEqual(one);
  });
});

describe("a request's text", () => {
  it('is the words joined by single spaces, cut at 600 characters, as collapsing every space run then slicing gives', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constantFrom(' ', '  ', '\n', '\t ', '\u00a0'),
            fc.string({ unit: fc.constantFrom(...'abcxyz.,?-'), minLength: 1, maxLength: 300 }),
          ),
          { maxLength: 40 },
        ),
        (parts) => {
          const text = `ask ${parts.join('')}`;
          const collector = new SessionCollector('f.jsonl', false, 's');
          collector.userText('s', text);
          collector.call('s', 'Read', {});
          const expected = text.trim().replace(/\s+/g, ' ').slice(0, 600);
          expect(collector.finish().sessions[0]?.requests.map((r) => r.text) ?? []).toEqual([expected]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
