import { createHash } from 'node:crypto';

/** The id git gives a blob: sha-1 over `blob <size>\0<content>`. Lets a writer name the version it last wrote. */
export function blobOid(content: Uint8Array | string): string {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  return createHash('sha1').update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');
}
