import type { FileReadResult } from './collector.js';
import { readTranscriptFile, type ReadTranscriptOptions } from './read-transcript.js';

export interface ReadTranscriptsOptions extends Omit<ReadTranscriptOptions, 'displayPath'> {
  /** How to name each file in reports (default: its path). */
  displayPath?: (file: string) => string;
}

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'error';
}

/**
 * Reads transcript files one after another, yielding each file's sessions as
 * soon as it is read, so a caller can fold them into counts and let them go.
 * A file that cannot be read at all (permissions, vanished) is reported in
 * its result's `skipped`, and reading goes on.
 */
export async function* readTranscriptFiles(files: readonly string[], options: ReadTranscriptsOptions = {}): AsyncGenerator<FileReadResult> {
  const { displayPath, ...rest } = options;
  for (const file of files) {
    const shown = displayPath?.(file) ?? file;
    try {
      yield await readTranscriptFile(file, { ...rest, displayPath: shown });
    } catch (error) {
      yield {
        file: shown,
        format: undefined,
        sessions: [],
        uses: [],
        skipped: [
          {
            file: shown,
            reason: `could not read the file (${errorCode(error)})`,
            count: 1,
          },
        ],
      };
    }
  }
}
