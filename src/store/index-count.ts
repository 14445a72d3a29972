import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How many entries git's index holds, from its 12-byte header alone (a
 * guess at a library's size before it is discovered); 0 when there is no
 * index or it is not one.
 */
export function indexEntryCount(gitdir: string): number {
  let fd: number | undefined;
  try {
    fd = openSync(join(gitdir, 'index'), 'r');
    const header = Buffer.alloc(12);
    if (readSync(fd, header, 0, 12, 0) < 12 || header.toString('latin1', 0, 4) !== 'DIRC') return 0;
    return header.readUInt32BE(8);
  } catch {
    return 0;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
