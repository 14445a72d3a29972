import { gzipSync } from 'node:zlib';
import { Header } from 'tar/header';
import { PackSync } from 'tar/pack';
import { ReadEntry } from 'tar/read-entry';

/**
 * A deterministic gzip'd tar, written by node-tar from bytes in memory: entries sorted, no times, no owners
 * (`portable`), so the same files give the same bytes (and the same digest) on every machine.
 */
export function buildTarGz(files: readonly { path: string; bytes: Uint8Array; executable?: boolean }[]): Buffer {
  const pack = new PackSync({ portable: true, noMtime: true, strict: true });
  const chunks: Buffer[] = [];
  pack.on('data', (chunk: Buffer) => chunks.push(chunk));
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const entry = new ReadEntry(
      new Header({ path: file.path, type: 'File', size: file.bytes.length, mode: file.executable ? 0o755 : 0o644 }),
    );
    pack.add(entry);
    entry.end(Buffer.from(file.bytes));
  }
  pack.end();
  // Gzip'd here, not by node-tar: zlib at level 9 writes mtime 0 and no name, so the bytes depend on the content alone.
  return gzipSync(Buffer.concat(chunks), { level: 9 });
}
