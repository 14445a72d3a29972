import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

/** A file's bytes with the size and mode its open handle reported. */
export interface OpenedFile {
  bytes: Buffer;
  size: number;
  mode: number;
  /** The open handle's whole stat (the scan cache compares it with git's index). */
  stats: Stats;
}

/**
 * Files read once and handed on within one pass: `validate` reads every
 * SKILL.md, and the security scan that follows it needs the same bytes.
 * `take` forgets what it returns, so the pass holds each file only until
 * its second reader has it.
 */
export interface FileCache {
  /** Reads the whole file (throws as `readFileSync` does) and keeps it for `take`; what `readAhead` kept is taken instead. */
  read(path: string): OpenedFile;
  /**
   * For a pass whose next reader will read every file (a cold run): a
   * regular file's stat from its open handle, never through a link, and its
   * bytes kept for `take` when it is at most `maxBytes` (else only the stat).
   * Undefined when it is not a regular file (a link, gone, replaced since it
   * was listed): the caller looks at it with `lstat`, as without this.
   */
  readAhead?(path: string, maxBytes: number): Stats | undefined;
  /** What `read` kept for `path`, forgotten from then on; undefined when nothing was kept. */
  take(path: string): OpenedFile | undefined;
  /** Keeps a file's `lstat` (validate lists every file with its size) for `takeStat`. */
  keepStat(path: string, stats: Stats): void;
  /** What `keepStat` kept for `path`, forgotten from then on. */
  takeStat(path: string): Stats | undefined;
}

/** Reads at most `maxBytes` of a file, with its size and mode (`fstat` on the open file, not a separate `lstat`). */
export function readOpened(path: string, maxBytes = Infinity): OpenedFile {
  const fd = openSync(path, 'r');
  try {
    const stats = fstatSync(fd);
    return readOpenFile(fd, stats, maxBytes);
  } finally {
    closeSync(fd);
  }
}

function readOpenFile(fd: number, stats: Stats, maxBytes: number): OpenedFile {
  const { size, mode } = stats;
  const length = Math.min(size, maxBytes);
  const bytes = Buffer.allocUnsafe(length);
  let offset = 0;
  while (offset < length) {
    const read = readSync(fd, bytes, offset, length - offset, offset);
    if (read === 0) break;
    offset += read;
  }
  return { bytes: bytes.subarray(0, offset), size, mode, stats };
}

/** Never through a link (a file swapped for one since it was listed), never blocking (one swapped for a FIFO). */
const aheadFlags =
  constants.O_NOFOLLOW === undefined || constants.O_NONBLOCK === undefined
    ? undefined
    : constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export function createFileCache(): FileCache {
  const kept = new Map<string, OpenedFile>();
  const stats = new Map<string, Stats>();
  return {
    read(path) {
      const file = kept.get(path) ?? readOpened(path);
      kept.set(path, file);
      stats.set(path, file.stats);
      return file;
    },
    readAhead(path, maxBytes) {
      if (aheadFlags === undefined) return undefined;
      let fd: number;
      try {
        fd = openSync(path, aheadFlags);
      } catch {
        return undefined;
      }
      try {
        const stat = fstatSync(fd);
        if (!stat.isFile()) return undefined;
        stats.set(path, stat);
        if (stat.size <= maxBytes) kept.set(path, { ...readOpenFile(fd, stat, stat.size), stats: stat });
        return stat;
      } catch {
        return undefined;
      } finally {
        closeSync(fd);
      }
    },
    take(path) {
      const file = kept.get(path);
      kept.delete(path);
      stats.delete(path);
      return file;
    },
    keepStat(path, stat) {
      stats.set(path, stat);
    },
    takeStat(path) {
      const stat = stats.get(path);
      stats.delete(path);
      return stat;
    },
  };
}
