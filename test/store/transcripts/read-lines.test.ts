import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readLines, type LineEvent } from '../../../src/store/transcripts/read-lines.js';

const dir = mkdtempSync(join(tmpdir(), 'sg-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function collect(path: string, maxLineBytes: number, chunkBytes: number): Promise<LineEvent[]> {
  const events: LineEvent[] = [];
  for await (const event of readLines(path, { maxLineBytes, chunkBytes })) events.push(event);
  return events;
}

describe('readLines', () => {
  it('yields the same lines as splitting the text, whatever the chunk size', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.string({
            unit: fc.constantFrom('a', 'é', '\n', '\r', 'z'),
            maxLength: 30,
          }),
          { maxLength: 6 },
        ),
        fc.integer({ min: 1, max: 9 }),
        async (parts, chunkBytes) => {
          const text = parts.join('\n');
          const path = join(dir, `p${(n += 1)}.txt`);
          writeFileSync(path, text);
          const events = await collect(path, 1 << 20, chunkBytes);
          const expected = text === '' ? [] : text.split('\n');
          if (text.endsWith('\n')) expected.pop();
          expect(events.map((e) => (e.kind === 'line' ? e.text : null))).toEqual(expected.map((l) => l.replace(/\r$/, '')));
          expect(events.map((e) => e.number)).toEqual(expected.map((_, i) => i + 1));
          if (events.length > 0) expect(events.some((e) => e.kind === 'line' && e.last)).toBe(!text.endsWith('\n'));
        },
      ),
      { numRuns: 120 },
    );
  });

  it('reports an over-long line with its number and size instead of its text', async () => {
    const path = join(dir, 'long.txt');
    writeFileSync(path, `short\n${'x'.repeat(100)}\nend`);
    const events = await collect(path, 50, 7);
    expect(events).toEqual([
      { kind: 'line', text: 'short', number: 1, last: false, utf8: true },
      { kind: 'too-long', number: 2, bytes: 100 },
      { kind: 'line', text: 'end', number: 3, last: true, utf8: true },
    ]);
  });
});
