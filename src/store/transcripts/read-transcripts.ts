import { statSync } from 'node:fs';
import type { FileReadResult } from './collector.js';
import { readTranscriptFile, type ReadTranscriptOptions } from './read-transcript.js';

export interface ReadTranscriptsOptions extends Omit<ReadTranscriptOptions, 'displayPath'> {
  /** How to name each file in reports (default: its path). */
  displayPath?: (file: string) => string;
  /** How many files are read at once (16); results come in the order of `files` whatever this is. */
  concurrency?: number;
  /** How many bytes of files are read at once (32 MiB): a larger file is read alone. */
  concurrentBytes?: number;
}

/** A file's size, 0 when it cannot be read (its reading reports why). */
function sizeOf(file: string): number {
  return statSync(file, { throwIfNoEntry: false })?.size ?? 0;
}

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'error';
}

/**
 * Reads transcript files, a few at a time, yielding each file's sessions in
 * the order of `files` as soon as it and those before it are read, so a caller
 * can fold them into counts and let them go. Reading one small file is mostly
 * waiting on the file system: 100,000 one-session files read one after another
 * took 96 s. A file of many sessions comes in parts (`partial`, then its last
 * result), so that it is never held whole: a million sessions in one file
 * held 1.5–2.3 GB. Large files are read one at a time (`concurrentBytes`): a file read ahead of its turn holds all
 * its sessions until the files before it are done, and 16 files of 50 MB read at once held 1.6 M calls (GC was
 * a third of reading 2 M calls). A file that cannot be read at all (permissions, vanished) is
 * reported in its result's `skipped`, and reading goes on.
 */
export async function* readTranscriptFiles(files: readonly string[], options: ReadTranscriptsOptions = {}): AsyncGenerator<FileReadResult> {
  const { displayPath, concurrency = 16, concurrentBytes = 32 * 1024 * 1024, ...rest } = options;
  /** One file's parts as they come, its last result at the end; `wake` tells the reader of its parts that more came. */
  interface Reading {
    parts: FileReadResult[];
    bytes: number;
    wake: (() => void) | undefined;
  }
  const read = (file: string, bytes: number): Reading => {
    const reading: Reading = { parts: [], bytes, wake: undefined };
    const push = (part: FileReadResult) => {
      reading.parts.push(part);
      reading.wake?.();
    };
    const shown = displayPath?.(file) ?? file;
    readTranscriptFile(file, { ...rest, displayPath: shown }, push).then(push, (error: unknown) =>
      push({
        file: shown,
        format: undefined,
        sessions: [],
        uses: [],
        skipped: [{ file: shown, reason: `could not read the file (${errorCode(error)})`, count: 1 }],
      }),
    );
    return reading;
  };
  const pending: Reading[] = [];
  let next = 0;
  let pendingBytes = 0;
  /** The size of `files[next]`, once known (a file that waits for its turn is not measured again). */
  let nextBytes: number | undefined;
  const refill = () => {
    while (next < files.length && pending.length < Math.max(1, concurrency)) {
      const file = files[next] as string;
      const bytes = (nextBytes ??= sizeOf(file));
      if (pending.length > 0 && pendingBytes + bytes > concurrentBytes) return;
      next += 1;
      nextBytes = undefined;
      pendingBytes += bytes;
      pending.push(read(file, bytes));
    }
  };
  refill();
  while (pending.length > 0) {
    const head = pending[0] as Reading;
    while (head.parts.length === 0) await new Promise<void>((resolve) => (head.wake = resolve));
    head.wake = undefined;
    const part = head.parts.shift() as FileReadResult;
    if (part.partial !== true) {
      pending.shift();
      pendingBytes -= head.bytes;
      refill();
    }
    yield part;
  }
}
