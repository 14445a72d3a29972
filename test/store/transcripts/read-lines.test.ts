import { isUtf8 } from 'node:buffer';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readLines, type LineEvent } from '../../../src/store/transcripts/read-lines.js';

const dir = mkdtempSync(join(tmpdir(), 'sg-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function collect(path: string, maxLineBytes: number, chunkBytes: number, blockBytes?: number): Promise<LineEvent[]> {
  const events: LineEvent[] = [];
  for await (const event of readLines(path, { maxLineBytes, chunkBytes, ...(blockBytes === undefined ? {} : { blockBytes }) }))
    events.push(event);
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

  it('equals the plain reading (every line found, sliced, checked and decoded on its own) on random bytes, whatever the chunk and line limits', async () => {
    let n = 0;
    const byte = fc.oneof(
      fc.constantFrom(10, 10, 13, 32, 97, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xff, 0xef, 0xbf, 0xbd),
      fc.integer({ min: 0, max: 255 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(byte, { maxLength: 80 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 12 }),
        async (bytes, chunkBytes, maxLineBytes, blockBytes) => {
          const path = join(dir, `b${(n += 1)}.txt`);
          writeFileSync(path, Buffer.from(bytes));
          expect(await collect(path, maxLineBytes, chunkBytes, blockBytes)).toEqual(plainLines(readFileSync(path), maxLineBytes));
        },
      ),
      { numRuns: 600 },
    );
  });
});

/** The plain rule: each line's bytes up to a newline, a trailing CR dropped, decoded and checked on their own. */
function plainLines(bytes: Buffer, maxLineBytes: number): LineEvent[] {
  const events: LineEvent[] = [];
  let from = 0;
  for (let number = 1; from < bytes.length; number += 1) {
    const newline = bytes.indexOf(10, from);
    const end = newline < 0 ? bytes.length : newline;
    const line = bytes.subarray(from, end);
    if (line.length > maxLineBytes) events.push({ kind: 'too-long', number, bytes: line.length });
    else {
      const text = line.at(-1) === 13 ? line.subarray(0, -1) : line;
      events.push({ kind: 'line', text: text.toString('utf8'), number, last: newline < 0, utf8: isUtf8(text) });
    }
    from = end + 1;
  }
  return events;
}
