import { closeSync, openSync, read, readSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';

export type LineEvent =
  { kind: 'line'; text: string; number: number; last: boolean; utf8: boolean } | { kind: 'too-long'; number: number; bytes: number };

export interface ReadLinesOptions {
  /** A longer line is skipped (and reported) instead of buffered. */
  maxLineBytes: number;
  chunkBytes?: number;
  /** How many bytes of whole lines are decoded as one string (64 KiB). */
  blockBytes?: number;
}

/**
 * Streams a file's lines. Unlike `readline`, which buffers a line of any
 * length, a line past `maxLineBytes` is dropped as its bytes arrive, so one
 * 1 GB line costs at most `maxLineBytes + chunkBytes` of memory.
 * `last` marks a final line with no newline after it (possibly truncated).
 */
export async function* readLines(path: string, options: ReadLinesOptions): AsyncGenerator<LineEvent> {
  for await (const batch of readLineBatches(path, options)) yield* batch;
}

/**
 * `readLines` a chunk at a time: the lines each read of the file completes, in order. The whole lines of a chunk
 * are decoded and split as one string when its bytes are valid UTF-8 (one decoding per block instead of a search,
 * a slice, a check and a decoding per line); a line across chunks, or in a chunk with bytes that are not UTF-8,
 * is read byte by byte as before. `test/store/transcripts/read-lines.test.ts` checks both give the same events.
 */
export async function* readLineBatches(path: string, options: ReadLinesOptions): AsyncGenerator<LineEvent[]> {
  const stream = readChunks(path, options.chunkBytes ?? 1 << 20);
  const max = options.maxLineBytes;
  const blockBytes = options.blockBytes ?? 1 << 16;
  let parts: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  let number = 1;
  /** Adds bytes to the line being gathered (dropped once it is too long). */
  const gather = (bytes: Buffer): void => {
    if (!tooLong && size + bytes.length > max) {
      tooLong = true;
      parts = [];
    }
    if (!tooLong && bytes.length > 0) parts.push(bytes);
    size += bytes.length;
  };
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
  for await (const chunk of stream) {
    const batch: LineEvent[] = [];
    const first = chunk.indexOf(10);
    if (first < 0) {
      gather(chunk);
      continue;
    }
    // The line the last chunk left open ends here.
    gather(chunk.subarray(0, first));
    batch.push(finish(false) as LineEvent);
    const lastNewline = chunk.lastIndexOf(10);
    for (let from = first + 1; from <= lastNewline;) {
      // Whole lines of about `blockBytes` at a time: a string over 128 KiB is a large object, garbage that only a
      // full collection frees (1 MiB strings raised the peak memory by a third).
      let end = chunk.lastIndexOf(10, Math.min(from + blockBytes - 1, lastNewline));
      if (end < from) end = chunk.indexOf(10, from);
      const block = chunk.subarray(from, end + 1);
      const text = block.toString('utf8');
      if (isValidUtf8(text, block)) number = splitLines(text, number, max, batch);
      else
        for (let at = 0; at < block.length;) {
          const newline = block.indexOf(10, at);
          gather(block.subarray(at, newline));
          batch.push(finish(false) as LineEvent);
          at = newline + 1;
        }
      from = end + 1;
    }
    gather(chunk.subarray(lastNewline + 1));
    yield batch;
  }
  if (size > 0 || tooLong) {
    const event = finish(true);
    if (event !== undefined) yield [event];
  }
}

/** The first read of a file: most transcript files are smaller. */
const firstChunkBytes = 1 << 16;

/**
 * A file's bytes, a chunk at a time: the first chunk at most 64 KiB, read synchronously, the others `chunkBytes`,
 * read through the thread pool so a long file lets other work run between its chunks. A read stream gave every file
 * a 1 MiB buffer and three trips through the thread pool: 10,000 one-session files took 7.0 s of CPU, 1.2 s now.
 * A regular file (all `expandTranscriptPaths` lists) reads short only at its end, so a short read ends it.
 */
async function* readChunks(path: string, chunkBytes: number): AsyncGenerator<Buffer> {
  const fd = openSync(path, 'r');
  try {
    let size = Math.min(firstChunkBytes, chunkBytes);
    let buffer = Buffer.allocUnsafeSlow(size);
    let bytesRead = readSync(fd, buffer, 0, size, null);
    for (;;) {
      if (bytesRead === 0) return;
      if (bytesRead < size) {
        yield buffer.subarray(0, bytesRead);
        return;
      }
      yield buffer;
      size = chunkBytes;
      buffer = Buffer.allocUnsafeSlow(size);
      bytesRead = await readAsync(fd, buffer);
    }
  } finally {
    closeSync(fd);
  }
}

function readAsync(fd: number, buffer: Buffer): Promise<number> {
  return new Promise((resolve, reject) =>
    read(fd, buffer, 0, buffer.length, null, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead))),
  );
}

/** The lines of `text`, valid UTF-8 that ends with a newline, numbered from `number`; returns the next line's number. */
function splitLines(text: string, number: number, max: number, out: LineEvent[]): number {
  for (let from = 0; from < text.length; number += 1) {
    const newline = text.indexOf('\n', from);
    const end = newline > from && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
    // A UTF-16 unit is at most three bytes of UTF-8: only a line that long may be over the limit.
    const bytes = (newline - from) * 3 > max ? Buffer.byteLength(text.slice(from, newline)) : 0;
    out.push(
      bytes > max ? { kind: 'too-long', number, bytes } : { kind: 'line', text: text.slice(from, end), number, last: false, utf8: true },
    );
    from = newline + 1;
  }
  return number;
}

function decode(bytes: Buffer, number: number, last: boolean): LineEvent {
  const end = bytes.length > 0 && bytes[bytes.length - 1] === 13 ? bytes.length - 1 : bytes.length;
  const line = bytes.subarray(0, end);
  const text = line.toString('utf8');
  return { kind: 'line', text, number, last, utf8: isValidUtf8(text, line) };
}

/**
 * Whether `bytes` are valid UTF-8, given `text`, their decoding: the decoder writes U+FFFD for every invalid
 * sequence, so a text without one came from valid bytes, and only a text with one (a real U+FFFD, or bad bytes)
 * needs the bytes checked. Checking every block's bytes first was 6 % of reading.
 */
function isValidUtf8(text: string, bytes: Buffer): boolean {
  return !text.includes('\uFFFD') || isUtf8(bytes);
}
