import { gunzipSync } from 'node:zlib';
import { Parser } from 'tar/parse';

/** What an archive lists: entry names (and links), never their contents. */
export interface ArchiveListing {
  format: 'zip' | 'tar' | 'tar.gz' | 'gzip' | 'other';
  entries: { name: string; link?: boolean }[];
  /** Why the listing is missing or partial (corrupt, truncated, a format we do not list). */
  problem?: string;
}

/** Entries listed per archive; a listing stops here (a zip bomb of names must not cost more). */
const maxEntries = 10_000;
/** A gzip stream is inflated only this far, for its tar headers. */
const maxInflated = 16 * 1024 * 1024;

function u16(b: Uint8Array, i: number): number {
  return (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8);
}
function u32(b: Uint8Array, i: number): number {
  return (u16(b, i) + u16(b, i + 2) * 0x10000) >>> 0;
}

const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder('utf-8');

/** A zip's names from its central directory (the end record is in the last 64 KiB + 22 bytes). */
function listZip(b: Uint8Array): ArchiveListing {
  let end = -1;
  for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 0xffff); i--) {
    if (b[i] === 0x50 && b[i + 1] === 0x4b && b[i + 2] === 0x05 && b[i + 3] === 0x06) {
      end = i;
      break;
    }
  }
  if (end < 0) return { format: 'zip', entries: [], problem: 'no central directory (corrupt or truncated zip)' };
  const count = u16(b, end + 10);
  let at = u32(b, end + 16);
  const entries: ArchiveListing['entries'] = [];
  for (let n = 0; n < count && entries.length < maxEntries; n++) {
    if (u32(b, at) !== 0x02014b50) return { format: 'zip', entries, problem: `central directory entry ${n + 1} is corrupt` };
    const flags = u16(b, at + 8);
    const nameLength = u16(b, at + 28);
    const extra = u16(b, at + 30);
    const comment = u16(b, at + 32);
    const raw = b.subarray(at + 46, at + 46 + nameLength);
    // Bit 11: the name is UTF-8; otherwise CP437, which Latin-1 reads well enough for the ASCII that matters here.
    entries.push({ name: (flags & 0x800 ? utf8 : latin1).decode(raw) });
    at += 46 + nameLength + extra + comment;
  }
  return { format: 'zip', entries, ...(count > maxEntries ? { problem: `more than ${maxEntries} entries; the rest not listed` } : {}) };
}

/**
 * A tar's names, read by node-tar's parser from bytes in memory (ustar prefixes, GNU long names and pax paths
 * included). The parser reads synchronously and does no I/O; entry bodies are skipped, never kept.
 */
function listTar(b: Uint8Array, format: 'tar' | 'tar.gz'): ArchiveListing {
  const entries: ArchiveListing['entries'] = [];
  let problem: string | undefined;
  const parser = new Parser({
    onReadEntry: (entry) => {
      if (entries.length < maxEntries)
        entries.push({ name: entry.path, ...(entry.type === 'Link' || entry.type === 'SymbolicLink' ? { link: true } : {}) });
      entry.resume();
    },
    onwarn: (code) => {
      problem ??= code === 'TAR_ENTRY_INVALID' ? 'corrupt tar header' : `unreadable tar (${code})`;
    },
  });
  parser.end(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
  return { format, entries, ...(problem === undefined ? {} : { problem }) };
}

/** Lists a zip, a tar or a gzipped tar; other archives are reported as not listable. */
export function listArchive(bytes: Uint8Array, truncated: boolean): ArchiveListing {
  const cut = truncated ? ' (the file is larger than the scan limit: listing may be partial)' : '';
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    const listing = listZip(bytes);
    return listing.problem && truncated ? { ...listing, problem: `${listing.problem}${cut}` } : listing;
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    let inflated: Uint8Array;
    try {
      inflated = gunzipSync(bytes, { maxOutputLength: maxInflated, finishFlush: 2 /* Z_SYNC_FLUSH: a cut stream still inflates */ });
    } catch (error) {
      const tooBig = (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
      return {
        format: 'gzip',
        entries: [],
        problem: tooBig ? `inflates to more than ${maxInflated} bytes` : `not a valid gzip stream${cut}`,
      };
    }
    const tar = inflated.length >= 262 && latin1.decode(inflated.subarray(257, 262)) === 'ustar';
    return tar ? listTar(inflated, 'tar.gz') : { format: 'gzip', entries: [] };
  }
  if (bytes.length >= 262 && latin1.decode(bytes.subarray(257, 262)) === 'ustar') return listTar(bytes, 'tar');
  return { format: 'other', entries: [], problem: 'this archive format is not listed by the scan' };
}
