import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { inFolder } from './fs-sync.js';
import type { ObjectType } from './loose-objects.js';

/** An object for a pack: whole, or as a delta against an object earlier in the same pack. */
export interface PackObject {
  oid: string;
  type: ObjectType;
  data: Buffer;
  /** When set, `data` is a delta (pack-delta.ts) whose base is this object, written earlier in the same pack. */
  base?: string;
}

const typeCodes: Record<ObjectType, number> = { commit: 1, tree: 2, blob: 3 };
const ofsDelta = 6;

/**
 * One pack and its version-2 index (gitformat-pack(5)), as `git fast-import` writes one: the
 * objects of a batch of commits, the big folder trees stored as deltas of their previous version.
 * The `.pack` is renamed into place before the `.idx`: git sees a pack only once its index exists.
 * Both are fsynced when `durable` (core.fsync's default covers packs and their metadata).
 */
export function writePack(commondir: string, objects: readonly PackObject[], durable: boolean): string {
  const folder = join(commondir, 'objects', 'pack');
  const offsets = new Map<string, number>();
  const crcs = new Map<string, number>();
  const chunks: Buffer[] = [];
  const head = Buffer.alloc(12);
  head.write('PACK', 0, 'latin1');
  head.writeUInt32BE(2, 4);
  head.writeUInt32BE(objects.length, 8);
  chunks.push(head);
  let offset = head.length;
  for (const object of objects) {
    const baseOffset = object.base === undefined ? undefined : offsets.get(object.base);
    if (object.base !== undefined && baseOffset === undefined)
      throw new Error(`pack: delta base ${object.base} is not earlier in the pack`);
    const header = entryHeader(baseOffset === undefined ? typeCodes[object.type] : ofsDelta, object.data.length);
    const distance = baseOffset === undefined ? Buffer.alloc(0) : encodeDistance(offset - baseOffset);
    const body = deflateSync(object.data, { level: 1 });
    offsets.set(object.oid, offset);
    crcs.set(object.oid, crc32(body, crc32(distance, crc32(header))));
    chunks.push(header, distance, body);
    offset += header.length + distance.length + body.length;
  }
  const hash = createHash('sha1');
  for (const chunk of chunks) hash.update(chunk);
  const checksum = hash.digest();
  chunks.push(checksum);
  const name = `pack-${checksum.toString('hex')}`;
  const index = buildIndex(objects, offsets, crcs, checksum);
  writeAtomically(folder, `${name}.pack`, chunks, durable);
  writeAtomically(folder, `${name}.idx`, [index], durable);
  return name;
}

/** Type and size: 3 type bits and 4 size bits in the first byte, 7 size bits in each next one. */
function entryHeader(type: number, size: number): Buffer {
  const bytes = [(type << 4) | (size & 0x0f)];
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes[bytes.length - 1]! |= 0x80;
    bytes.push(rest & 0x7f);
    rest = Math.floor(rest / 128);
  }
  return Buffer.from(bytes);
}

/** OFS_DELTA's distance back to the base: big-endian 7-bit groups, each but the last plus one. */
function encodeDistance(distance: number): Buffer {
  let rest = distance;
  const bytes = [rest & 0x7f];
  while ((rest = Math.floor(rest / 128)) > 0) {
    rest -= 1;
    bytes.unshift(0x80 | (rest & 0x7f));
  }
  return Buffer.from(bytes);
}

function buildIndex(objects: readonly PackObject[], offsets: Map<string, number>, crcs: Map<string, number>, checksum: Buffer): Buffer {
  const oids = objects.map((o) => o.oid).sort();
  const n = oids.length;
  const big = oids.filter((oid) => offsets.get(oid)! >= 0x80000000);
  const index = Buffer.alloc(8 + 256 * 4 + n * 28 + big.length * 8 + 40);
  index.writeUInt32BE(0xff744f63, 0);
  index.writeUInt32BE(2, 4);
  let at = 8;
  let cursor = 0;
  for (let byte = 0; byte < 256; byte += 1) {
    while (cursor < n && parseInt(oids[cursor]!.slice(0, 2), 16) <= byte) cursor += 1;
    index.writeUInt32BE(cursor, at);
    at += 4;
  }
  for (const oid of oids) at += index.write(oid, at, 'hex');
  for (const oid of oids) at = index.writeUInt32BE(crcs.get(oid)!, at);
  let large = 0;
  for (const oid of oids) {
    const offset = offsets.get(oid)!;
    at = index.writeUInt32BE(offset < 0x80000000 ? offset : 0x80000000 | large++, at);
  }
  for (const oid of big) {
    const offset = offsets.get(oid)!;
    at = index.writeUInt32BE(Math.floor(offset / 2 ** 32), at);
    at = index.writeUInt32BE(offset % 2 ** 32, at);
  }
  at += checksum.copy(index, at);
  createHash('sha1').update(index.subarray(0, at)).digest().copy(index, at);
  return index;
}

function writeAtomically(folder: string, name: string, chunks: readonly Buffer[], durable: boolean): void {
  const temp = join(folder, `tmp_pack_${process.pid}_${randomBytes(4).toString('hex')}`);
  const fd = inFolder(temp, () => openSync(temp, 'wx', 0o444));
  try {
    // One write: a pack of thousands of small objects is tens of thousands of chunks.
    writeSync(fd, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, join(folder, name));
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
