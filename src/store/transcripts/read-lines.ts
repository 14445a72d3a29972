import { createReadStream } from 'node:fs';
import { isUtf8 } from 'node:buffer';

export type LineEvent =
  { kind: 'line'; text: string; number: number; last: boolean; utf8: boolean } | { kind: 'too-long'; number: number; bytes: number };

export interface ReadLinesOptions {
  /** A longer line is skipped (and reported) instead of buffered. */
  maxLineBytes: number;
  chunkBytes?: number;
}

/**
 * Streams a file's lines. Unlike `readline`, which buffers a line of any
 * length, a line past `maxLineBytes` is dropped as its bytes arrive, so one
 * 1 GB line costs at most `maxLineBytes + chunkBytes` of memory.
 * `last` marks a final line with no newline after it (possibly truncated).
 */
export async function* readLines(path: string, options: ReadLinesOptions): AsyncGenerator<LineEvent> {
  const stream = createReadStream(path, {
    highWaterMark: options.chunkBytes ?? 1 << 20,
  });
  let parts: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  let number = 1;
  const finish = (isLast: boolean): LineEvent | undefined => {
    const event: LineEvent | undefined = tooLong
      ? { kind: 'too-long', number, bytes: size }
      : size > 0 || !isLast
        ? decode(parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, size), number, isLast)
        : undefined;
    parts = [];
    size = 0;
    tooLong = false;
    number += 1;
    return event;
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let from = 0;
    while (from < chunk.length) {
      const newline = chunk.indexOf(10, from);
      const end = newline < 0 ? chunk.length : newline;
      if (!tooLong && size + (end - from) > options.maxLineBytes) {
        tooLong = true;
        parts = [];
      }
      if (!tooLong && end > from) parts.push(chunk.subarray(from, end));
      size += end - from;
      if (newline < 0) break;
      const event = finish(false);
      if (event !== undefined) yield event;
      from = newline + 1;
    }
  }
  if (size > 0 || tooLong) {
    const event = finish(true);
    if (event !== undefined) yield event;
  }
}

function decode(bytes: Buffer, number: number, last: boolean): LineEvent {
  const end = bytes.length > 0 && bytes[bytes.length - 1] === 13 ? bytes.length - 1 : bytes.length;
  const line = bytes.subarray(0, end);
  return {
    kind: 'line',
    text: line.toString('utf8'),
    number,
    last,
    utf8: isUtf8(line),
  };
}
