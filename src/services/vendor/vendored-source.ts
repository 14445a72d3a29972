import type { LockEntry } from '../../core/vendor/index.js';
import { readLock } from './vendored-skill.js';

/** Where a vendored skill comes from, as `show` prints it. */
export interface VendoredSource {
  source: string;
  ref?: string;
  /** The pinned source commit, when this tool (or one that records it) wrote the entry. */
  commit?: string;
  installedAt?: string;
}

/** The lock's entry for `name`, or `null` for a skill that is not vendored. A broken lock throws (`vendor/bad-lock`). */
export function readVendoredSource(repoDir: string, name: string): VendoredSource | null {
  const entry: LockEntry | undefined = readLock(repoDir).skills[name];
  if (entry === undefined) return null;
  return {
    source: entry.source,
    ...(entry.ref ? { ref: entry.ref } : {}),
    ...(typeof entry.commit === 'string' ? { commit: entry.commit } : {}),
    ...(typeof entry.installedAt === 'string' ? { installedAt: entry.installedAt } : {}),
  };
}
