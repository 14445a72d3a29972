import { listArchive, type ArchiveListing } from './archive-listing.js';

/**
 * What a file's bytes are, for the scan. A file whose name says text (a
 * Markdown, a script, a config, a name without extension) is text whatever
 * else it holds: a NUL byte, invalid UTF-8 or a mix of encodings must not
 * switch the text scan off (an attacker adds `<!-- \0 -->` to a SKILL.md for
 * exactly that). A known format whose name agrees (an `.mp3` starting `ID3`)
 * is judged by type. Any other file whose bytes are not text (NUL bytes,
 * control characters or invalid UTF-8 in its head, or a known format under
 * another name) is `binary`: only its readable strings are scanned.
 */
export type ContentKind = 'text' | 'native-executable' | 'image' | 'font' | 'archive' | 'document' | 'media' | 'binary';

export interface FileContent {
  kind: ContentKind;
  /** Decoded text; empty for binaries judged by type; for other binaries, their readable strings. */
  text: string;
  /** How the text was decoded. */
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'mixed' | 'none';
  /** True when the file was longer than the byte limit and only its head was read. */
  truncated: boolean;
  /** True when the text held NUL bytes (dropped from `text`; UTF-16 aside). */
  nul: boolean;
  /** For archives: the entries it lists (or why they could not be listed). */
  archive?: ArchiveListing;
}

interface BinaryFormat {
  kind: Exclude<ContentKind, 'text' | 'native-executable' | 'binary'>;
  magic: readonly (number | undefined)[];
  offset?: number;
  extensions: readonly string[];
}

// `undefined` in a magic is any byte (RIFF's length field).
const formats: readonly BinaryFormat[] = [
  { kind: 'image', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], extensions: ['png', 'apng'] },
  { kind: 'image', magic: [0xff, 0xd8, 0xff], extensions: ['jpg', 'jpeg', 'jfif'] },
  { kind: 'image', magic: [0x47, 0x49, 0x46, 0x38], extensions: ['gif'] },
  {
    kind: 'image',
    magic: [0x52, 0x49, 0x46, 0x46, undefined, undefined, undefined, undefined, 0x57, 0x45, 0x42, 0x50],
    extensions: ['webp'],
  },
  { kind: 'image', magic: [0x42, 0x4d], extensions: ['bmp'] },
  { kind: 'image', magic: [0x00, 0x00, 0x01, 0x00], extensions: ['ico'] },
  { kind: 'image', magic: [0x49, 0x49, 0x2a, 0x00], extensions: ['tif', 'tiff'] },
  { kind: 'image', magic: [0x4d, 0x4d, 0x00, 0x2a], extensions: ['tif', 'tiff'] },
  { kind: 'image', magic: [0x66, 0x74, 0x79, 0x70, 0x61, 0x76, 0x69, 0x66], offset: 4, extensions: ['avif'] },
  { kind: 'font', magic: [0x00, 0x01, 0x00, 0x00], extensions: ['ttf', 'otf', 'ttc'] },
  { kind: 'font', magic: [0x4f, 0x54, 0x54, 0x4f], extensions: ['otf', 'ttf'] },
  { kind: 'font', magic: [0x74, 0x74, 0x63, 0x66], extensions: ['ttc'] },
  { kind: 'font', magic: [0x77, 0x4f, 0x46, 0x46], extensions: ['woff'] },
  { kind: 'font', magic: [0x77, 0x4f, 0x46, 0x32], extensions: ['woff2'] },
  { kind: 'archive', magic: [0x50, 0x4b, 0x03, 0x04], extensions: ['zip', 'jar', 'whl', 'docx', 'xlsx', 'pptx', 'odt', 'epub', 'skill'] },
  { kind: 'archive', magic: [0x50, 0x4b, 0x05, 0x06], extensions: ['zip'] },
  { kind: 'archive', magic: [0x1f, 0x8b], extensions: ['gz', 'tgz'] },
  { kind: 'archive', magic: [0x75, 0x73, 0x74, 0x61, 0x72], offset: 257, extensions: ['tar'] },
  { kind: 'archive', magic: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], extensions: ['7z'] },
  { kind: 'archive', magic: [0x42, 0x5a, 0x68], extensions: ['bz2', 'tbz2'] },
  { kind: 'archive', magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], extensions: ['xz', 'txz'] },
  { kind: 'document', magic: [0x25, 0x50, 0x44, 0x46, 0x2d], extensions: ['pdf'] },
  { kind: 'media', magic: [0x49, 0x44, 0x33], extensions: ['mp3'] },
  { kind: 'media', magic: [0xff, 0xfb], extensions: ['mp3'] },
  { kind: 'media', magic: [0xff, 0xf3], extensions: ['mp3'] },
  { kind: 'media', magic: [0xff, 0xf1], extensions: ['aac'] },
  {
    kind: 'media',
    magic: [0x52, 0x49, 0x46, 0x46, undefined, undefined, undefined, undefined, 0x57, 0x41, 0x56, 0x45],
    extensions: ['wav'],
  },
  {
    kind: 'media',
    magic: [0x52, 0x49, 0x46, 0x46, undefined, undefined, undefined, undefined, 0x41, 0x56, 0x49, 0x20],
    extensions: ['avi'],
  },
  { kind: 'media', magic: [0x4f, 0x67, 0x67, 0x53], extensions: ['ogg', 'oga', 'ogv', 'opus'] },
  { kind: 'media', magic: [0x66, 0x4c, 0x61, 0x43], extensions: ['flac'] },
  { kind: 'media', magic: [0x66, 0x74, 0x79, 0x70], offset: 4, extensions: ['mp4', 'm4a', 'm4v', 'mov', 'heic'] },
  { kind: 'media', magic: [0x1a, 0x45, 0xdf, 0xa3], extensions: ['webm', 'mkv'] },
];

/** Names that say text: these are always scanned as text, whatever their bytes (a name without extension too). */
const textExtensions = new Set([
  ...['md', 'markdown', 'mdx', 'txt', 'rst', 'adoc', 'tex', 'csv', 'tsv', 'json', 'jsonl', 'ndjson', 'yaml', 'yml', 'toml', 'ini', 'cfg'],
  ...['conf', 'env', 'xml', 'svg', 'html', 'htm', 'css', 'scss', 'sass', 'less', 'vue', 'svelte', 'ipynb', 'j2', 'jinja', 'tmpl', 'tpl'],
  ...['sh', 'bash', 'zsh', 'fish', 'ps1', 'psm1', 'bat', 'cmd', 'vbs', 'command', 'py', 'rb', 'pl', 'php', 'lua', 'r', 'sql', 'go', 'rs'],
  ...['js', 'mjs', 'cjs', 'ts', 'mts', 'cts', 'tsx', 'jsx', 'java', 'kt', 'swift', 'c', 'h', 'cc', 'cpp', 'hpp', 'cs', 'dockerfile'],
]);

function hasMagic(bytes: Uint8Array, magic: readonly (number | undefined)[], offset = 0): boolean {
  if (bytes.length < offset + magic.length) return false;
  return magic.every((b, i) => b === undefined || bytes[offset + i] === b);
}

/** ELF, Windows PE, Mach-O (thin and fat): programs a skill should never carry, whatever their name. */
export function isNativeExecutable(head: Uint8Array): boolean {
  const mz = hasMagic(head, [0x4d, 0x5a]) && head.subarray(0, 1024).includes(0);
  return (
    hasMagic(head, [0x7f, 0x45, 0x4c, 0x46]) ||
    mz ||
    [
      [0xfe, 0xed, 0xfa, 0xce],
      [0xfe, 0xed, 0xfa, 0xcf],
      [0xce, 0xfa, 0xed, 0xfe],
      [0xcf, 0xfa, 0xed, 0xfe],
      [0xca, 0xfe, 0xba, 0xbe],
    ].some((m) => hasMagic(head, m))
  );
}

function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1);
}

/** The binary format the bytes are, when the name agrees with them; undefined for text. */
export function detectBinaryFormat(bytes: Uint8Array, path: string): BinaryFormat['kind'] | undefined {
  const ext = extensionOf(path);
  return formats.find((f) => f.extensions.includes(ext) && hasMagic(bytes, f.magic, f.offset))?.kind;
}

/** How much of a file's head says whether it is text (git looks at 8,000 bytes). */
const HEAD_BYTES = 8192;

/**
 * Bytes that are not text: a NUL, or more than one in ten that is a control
 * character or starts invalid UTF-8, in the head. UTF-16 text (NULs on every
 * other byte) is text.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, HEAD_BYTES);
  if (head.length === 0 || utf16Order(head)) return false;
  if (head.includes(0)) return true;
  let odd = 0;
  for (const b of head) if (b < 32 && b !== 9 && b !== 10 && b !== 12 && b !== 13 && b !== 27) odd += 1;
  // A cut at the end of the head may split one UTF-8 sequence: that is one replacement, not a sign.
  const invalid = lenientUtf8.decode(head).split('\uFFFD').length - 2;
  return odd + Math.max(0, invalid) > head.length / 10;
}

/** A file whose name says neither text nor the format its bytes are: binary when its bytes are not text or are a known format. */
function isNamelessBinary(bytes: Uint8Array, path: string): boolean {
  const ext = extensionOf(path);
  if (ext === '' || textExtensions.has(ext)) return false;
  return formats.some((f) => hasMagic(bytes, f.magic, f.offset)) || looksBinary(bytes);
}

/**
 * The readable text of binary bytes, as `strings` prints it: runs of six or
 * more printable ASCII characters, one a line, NUL bytes dropped first (bash
 * runs a script whose bytes are interleaved with NULs).
 */
export function readableStrings(bytes: Uint8Array): string {
  const runs: string[] = [];
  let run = '';
  for (const b of bytes) {
    if (b === 0) continue;
    if ((b >= 32 && b < 127) || b === 9) run += String.fromCharCode(b);
    else {
      if (run.length >= 6) runs.push(run);
      run = '';
    }
  }
  if (run.length >= 6) runs.push(run);
  return runs.join('\n');
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

/** UTF-16 by its byte-order mark, or by NULs on every other byte of mostly ASCII text (no BOM). */
function utf16Order(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (hasMagic(bytes, [0xff, 0xfe])) return 'utf-16le';
  if (hasMagic(bytes, [0xfe, 0xff])) return 'utf-16be';
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 8) return undefined;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenNul++;
    if (bytes[i + 1] === 0) oddNul++;
  }
  const pairs = n / 2;
  if (oddNul > pairs * 0.6 && evenNul < pairs * 0.1) return 'utf-16le';
  if (evenNul > pairs * 0.6 && oddNul < pairs * 0.1) return 'utf-16be';
  return undefined;
}

/**
 * Decodes text whatever it holds. UTF-8 when valid; UTF-16 when the bytes say
 * so; otherwise UTF-8 with invalid sequences replaced (U+FFFD), so the ASCII
 * and valid UTF-8 parts of a mixed file still read as written. NUL bytes are
 * dropped from the scanned text, so `Ig\0nore` reads as `Ignore`.
 */
export function decodeText(bytes: Uint8Array, truncated: boolean): Pick<FileContent, 'text' | 'encoding' | 'nul'> {
  const order = utf16Order(bytes);
  if (order) {
    const even = bytes.subarray(0, bytes.length & ~1);
    return { ...stripNul(new TextDecoder(order).decode(even)), encoding: order };
  }
  try {
    return { ...stripNul(strictUtf8.decode(bytes)), encoding: 'utf-8' };
  } catch {
    // A file cut at the byte limit may end inside a UTF-8 sequence: retry without the last 3 bytes.
    if (truncated) {
      try {
        return { ...stripNul(strictUtf8.decode(bytes.subarray(0, Math.max(0, bytes.length - 3)))), encoding: 'utf-8' };
      } catch {
        // Not UTF-8 after all.
      }
    }
    return { ...stripNul(lenientUtf8.decode(bytes)), encoding: 'mixed' };
  }
}

function stripNul(text: string): { text: string; nul: boolean } {
  return text.includes('\0') ? { text: text.replace(/\0/g, ''), nul: true } : { text, nul: false };
}

/** Classifies a file's bytes (`path` is its name, for the type) and decodes its text. Pure: the caller reads the bytes. */
export function decodeContent(bytes: Uint8Array, path: string, truncated: boolean): FileContent {
  const binary = { text: '', encoding: 'none', truncated, nul: false } as const;
  if (isNativeExecutable(bytes)) return { kind: 'native-executable', ...binary };
  const kind = detectBinaryFormat(bytes, path);
  if (kind === 'archive') return { kind, ...binary, archive: listArchive(bytes, truncated) };
  if (kind) return { kind, ...binary };
  if (isNamelessBinary(bytes, path)) return { kind: 'binary', ...binary, text: readableStrings(bytes) };
  return { kind: 'text', ...decodeText(bytes, truncated), truncated };
}
