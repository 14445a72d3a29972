import { readOpened, type FileCache } from '../file-cache.js';

export type ContentKind = 'text' | 'native-executable' | 'binary';

export interface FileContent {
  kind: ContentKind;
  /** Decoded text (UTF-8, or Latin-1 when the bytes are not UTF-8); empty for binaries. */
  text: string;
  utf8: boolean;
  /** True when the file was longer than the byte limit and only its head was read. */
  truncated: boolean;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function startsWith(buf: Buffer, bytes: number[]): boolean {
  return bytes.every((b, i) => buf[i] === b);
}

/** ELF, Windows PE, Mach-O (thin and fat): programs a skill should never carry. */
export function isNativeExecutable(head: Buffer): boolean {
  return (
    startsWith(head, [0x7f, 0x45, 0x4c, 0x46]) ||
    (startsWith(head, [0x4d, 0x5a]) && head.subarray(0, 1024).includes(0)) ||
    startsWith(head, [0xfe, 0xed, 0xfa, 0xce]) ||
    startsWith(head, [0xfe, 0xed, 0xfa, 0xcf]) ||
    startsWith(head, [0xce, 0xfa, 0xed, 0xfe]) ||
    startsWith(head, [0xcf, 0xfa, 0xed, 0xfe]) ||
    startsWith(head, [0xca, 0xfe, 0xba, 0xbe])
  );
}

/** Classifies bytes and decodes text. A NUL byte in the first 8 KiB means binary, as git decides. */
export function decodeContent(buf: Buffer, truncated: boolean): FileContent {
  if (isNativeExecutable(buf)) return { kind: 'native-executable', text: '', utf8: false, truncated };
  if (buf.subarray(0, 8192).includes(0)) return { kind: 'binary', text: '', utf8: false, truncated };
  try {
    return { kind: 'text', text: utf8.decode(buf), utf8: true, truncated };
  } catch {
    // A file cut at the byte limit may end inside a UTF-8 sequence: retry without the last 3 bytes.
    if (truncated) {
      try {
        return { kind: 'text', text: utf8.decode(buf.subarray(0, Math.max(0, buf.length - 3))), utf8: true, truncated };
      } catch {
        // Not UTF-8 after all.
      }
    }
    return { kind: 'text', text: buf.toString('latin1'), utf8: false, truncated };
  }
}

/** A file's content with the size and mode its open handle reports. */
export interface OpenedContent {
  content: FileContent;
  size: number;
  mode: number;
}

/**
 * Reads at most `maxBytes` of a file, and its size and mode; from `files`
 * when an earlier reader of the pass (validate) left it there.
 */
export function readContentWithStat(path: string, maxBytes: number, files?: FileCache): OpenedContent {
  const kept = files?.take(path);
  const { bytes, size, mode } = kept ? { ...kept, bytes: kept.bytes.subarray(0, maxBytes) } : readOpened(path, maxBytes);
  return { content: decodeContent(bytes, size > maxBytes), size, mode };
}

/** Reads at most `maxBytes` of a file. */
export function readContent(path: string, maxBytes: number): FileContent {
  return readContentWithStat(path, maxBytes).content;
}
