import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import { inFolder } from './fs-sync.js';
import type { NewCommit, TreeEntry } from './object-store.js';
import { formatTimezone, normalizeMessage } from './object-store.js';

export type ObjectType = 'blob' | 'tree' | 'commit';

export interface GitObject {
  type: string;
  content: Buffer;
}

/**
 * Loose objects as git writes them (zlib of `<type> <size>\0<content>`,
 * named by the SHA-1, through a temp file and a rename). Node's zlib is
 * several times faster than the pure-JS deflate isomorphic-git ships with.
 * Synchronous file calls: see fs-sync.ts.
 */
export async function writeLooseObject(gitdir: string, type: ObjectType, content: Uint8Array, durable = false): Promise<string> {
  const header = Buffer.from(`${type} ${content.length}\0`);
  const oid = createHash('sha1').update(header).update(content).digest('hex');
  const folder = join(gitdir, 'objects', oid.slice(0, 2));
  const path = join(folder, oid.slice(2));
  if (existsSync(path)) return oid;
  // Any zlib level is valid git; the fastest keeps big folder trees cheap to rewrite.
  const deflated = deflateSync(Buffer.concat([header, content]), { level: 1 });
  const temp = join(folder, `tmp_obj_${process.pid}_${randomBytes(4).toString('hex')}`);
  const fd = inFolder(temp, () => openSync(temp, 'wx', 0o444));
  try {
    writeFileSync(fd, deflated);
    // core.fsync's loose-object: the object is on disk before any ref can name it.
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return oid;
}

/** `undefined` when the object is not loose (it may be in a pack). */
export async function readLooseObject(gitdir: string, oid: string): Promise<GitObject | undefined> {
  let deflated: Buffer;
  try {
    deflated = readFileSync(join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2)));
  } catch {
    return undefined;
  }
  const raw = inflateSync(deflated);
  const nul = raw.indexOf(0);
  const [type = ''] = raw.toString('latin1', 0, nul).split(' ');
  return { type, content: raw.subarray(nul + 1) };
}

/** Entries must already be in git's order. One allocation: a skills folder can hold 10,000 entries. */
export function serializeTree(entries: readonly TreeEntry[]): Buffer {
  const heads = entries.map((e) => `${e.mode.replace(/^0/, '')} ${e.name}\0`);
  const buffer = Buffer.allocUnsafe(heads.reduce((sum, head) => sum + Buffer.byteLength(head) + 20, 0));
  let offset = 0;
  entries.forEach((entry, i) => {
    offset += buffer.write(heads[i]!, offset, 'utf8');
    offset += buffer.write(entry.oid, offset, 'hex');
  });
  return buffer;
}

export function serializeCommit(commit: NewCommit): Buffer {
  const who = ({ name, email, timestamp, timezoneOffset }: NewCommit['author']) =>
    `${name} <${email}> ${timestamp} ${formatTimezone(timezoneOffset)}`;
  const headers = [
    `tree ${commit.tree}`,
    ...commit.parents.map((p) => `parent ${p}`),
    `author ${who(commit.author)}`,
    `committer ${who(commit.committer ?? commit.author)}`,
  ];
  return Buffer.from(`${headers.join('\n')}\n\n${normalizeMessage(commit.message)}`, 'utf8');
}
