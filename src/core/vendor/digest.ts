import { createHash } from 'node:crypto';

export interface DigestFile {
  /** Relative to the skill folder, `/`-separated. */
  path: string;
  bytes: Uint8Array;
}

// vercel-labs/skills orders by `localeCompare`; an explicit locale keeps the order the same on every machine.
const collator = new Intl.Collator('en');

/**
 * The folder's digest as vercel-labs/skills computes `computedHash`: sha256 over each regular file, ordered by its
 * relative path, of the path's UTF-8 bytes and then the file's bytes. File times and listing order play no part.
 */
export function computeDigest(files: readonly DigestFile[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort((a, b) => collator.compare(a.path, b.path))) hash.update(file.path).update(file.bytes);
  return hash.digest('hex');
}
