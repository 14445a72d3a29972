import { isMainThread } from 'node:worker_threads';
import type { KeptListing } from './dir-cache.js';
import { folderStampProbe } from './folder-stamp-probe.js';
import { openRepoCache } from './repo-cache.js';

export const dirListingsFileName = 'dir-listings.json';

/** Listings kept beyond the bound are dropped (the oldest first): a cache of folders long gone must not grow without end. */
const maxListings = 200_000;

/** The folder listings earlier runs kept, by absolute path, and `save` for what this run listed afresh. */
export interface KeptListingsFile {
  /** The repository's git folder. */
  gitdir: string;
  kept: ReadonlyMap<string, KeptListing>;
  /** Writes the kept listings with `fresh` replacing those of the same folders; a no-op when `fresh` is empty. */
  save(fresh: readonly KeptListing[]): void;
}

/**
 * Opens `.git/skillgarden/dir-listings.json` of the repository at `repo`
 * (undefined outside a git repository). A file of another shape is ignored
 * whole (the run lists every folder, as without it); a listing is checked
 * in full only when a folder's stat matches it (dir-cache.ts), so opening
 * the file costs its parse and little more.
 */
export async function openKeptListings(repo: string): Promise<KeptListingsFile | undefined> {
  const file = await openRepoCache(repo, dirListingsFileName);
  if (!file) return undefined;
  const kept = new Map<string, KeptListing>();
  const data = file.data as { version?: unknown; listings?: unknown } | undefined;
  // Listings are trusted only where a folder's stat is known to move with its entries (folder-stamp-probe.ts); a
  // worker thread hands its listings back to be saved, so it never starts the probe.
  const probe = folderStampProbe(file.dir, file.gitdir, isMainThread);
  // Known not to: the run is as without the file (it neither reads nor keeps listings, nor counts as a first run).
  if (probe.verdict() === false) return undefined;
  if (probe.verdict() === true && data?.version === 1 && Array.isArray(data.listings) && data.listings.every(isKeptListing)) {
    for (const listing of data.listings as KeptListing[]) kept.set(listing[0], listing);
  }
  return {
    gitdir: file.gitdir,
    kept,
    save(fresh) {
      if (fresh.length === 0 || !probe.settle()) return;
      const merged = new Map(kept);
      for (const listing of fresh) {
        merged.delete(listing[0]);
        merged.set(listing[0], listing);
      }
      file.save({ version: 1, listings: [...merged.values()].slice(-maxListings) });
    },
  };
}

function isKeptListing(value: unknown): boolean {
  if (!Array.isArray(value) || value.length !== 6) return false;
  const [path, mtime, ctime, ino, names, types] = value as unknown[];
  return (
    typeof path === 'string' &&
    typeof mtime === 'number' &&
    typeof ctime === 'number' &&
    typeof ino === 'number' &&
    typeof names === 'string' &&
    typeof types === 'string'
  );
}
