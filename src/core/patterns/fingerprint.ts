// Hashing is pure computation: node:crypto does no I/O here, and the core lint rule allows it.
import { createHash } from 'node:crypto';

/**
 * A pattern's stable identity: sha-256 of its tokens joined by newlines, hex,
 * first 16 characters. The same sequence always gets the same fingerprint, so
 * a run never proposes a pattern twice or one a skill already records.
 */
export function buildFingerprint(tokens: readonly string[]): string {
  return createHash('sha256').update(tokens.join('\n'), 'utf8').digest('hex').slice(0, 16);
}
