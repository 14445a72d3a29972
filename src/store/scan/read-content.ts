import { decodeContent, type FileContent } from '../../core/scan/content.js';
import { readOpened, type FileCache } from '../file-cache.js';

export { decodeContent, isNativeExecutable, type ContentKind, type FileContent } from '../../core/scan/content.js';

/** A file's content with the size and mode its open handle reports. */
export interface OpenedContent {
  content: FileContent;
  size: number;
  mode: number;
}

/**
 * Reads at most `maxBytes` of a file, and its size and mode; from `files`
 * when an earlier reader of the pass (validate) left it there. `onBytes` sees
 * the bytes read (the scan cache hashes them).
 */
export function readContentWithStat(
  path: string,
  maxBytes: number,
  files?: FileCache,
  onBytes?: (bytes: Uint8Array) => void,
): OpenedContent {
  const kept = files?.take(path);
  const { bytes, size, mode } = kept ? { ...kept, bytes: kept.bytes.subarray(0, maxBytes) } : readOpened(path, maxBytes);
  onBytes?.(bytes);
  return { content: decodeContent(bytes, path, size > maxBytes), size, mode };
}

/** Reads at most `maxBytes` of a file. */
export function readContent(path: string, maxBytes: number): FileContent {
  return readContentWithStat(path, maxBytes).content;
}
