import { createHash } from 'node:crypto';

/** git's blob id: sha-1 of `blob <length>\0` and the bytes. Apart from cache-file.ts so a cache reader does not load node:crypto. */
export function blobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}
