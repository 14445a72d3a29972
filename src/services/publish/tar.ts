import { gzipSync } from 'node:zlib';

/**
 * A deterministic gzip'd ustar archive: entries sorted, times zero, owner 0,
 * so the same files give the same bytes (and the same digest) on every machine.
 */
export function buildTarGz(files: readonly { path: string; bytes: Uint8Array; executable?: boolean }[]): Buffer {
  const blocks: Buffer[] = [];
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    blocks.push(header(file.path, file.bytes.length, file.executable === true));
    blocks.push(Buffer.from(file.bytes));
    const pad = (512 - (file.bytes.length % 512)) % 512;
    if (pad > 0) blocks.push(Buffer.alloc(pad));
  }
  blocks.push(Buffer.alloc(1024));
  // mtime 0 and no name in the gzip header: the bytes depend on the content alone.
  return gzipSync(Buffer.concat(blocks), { level: 9 });
}

function header(path: string, size: number, executable: boolean): Buffer {
  const block = Buffer.alloc(512);
  const bytes = Buffer.from(path, 'utf8');
  let name = path;
  let prefix = '';
  if (bytes.length > 100) {
    // ustar splits a long path at a slash: up to 155 bytes of prefix, 100 of name.
    const cut = path.lastIndexOf('/', 155);
    if (cut <= 0 || Buffer.byteLength(path.slice(cut + 1)) > 100) throw new Error(`path too long for a tar entry: ${path}`);
    prefix = path.slice(0, cut);
    name = path.slice(cut + 1);
  }
  block.write(name, 0, 100, 'utf8');
  block.write(octal(executable ? 0o755 : 0o644, 8), 100);
  block.write(octal(0, 8), 108);
  block.write(octal(0, 8), 116);
  block.write(octal(size, 12), 124);
  block.write(octal(0, 12), 136);
  block.fill(' ', 148, 156);
  block.write('0', 156);
  block.write('ustar\u000000', 257, 'binary');
  block.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 'binary');
  return block;
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\u0000`;
}
