import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../store/files.js';
import { cacheFilePath } from '../store/cache-file.js';
import type { HistoryIndex } from '../core/ledger/history-index.js';

/**
 * Commit → the skills its trailers name and those whose files it changed (found by path, following
 * moves), for every commit that is a ledger entry or touches a skill: what `log` shows, without
 * re-reading history.
 */
export type LedgerCommits = Record<string, string[]>;

/** The cached index and the commits it folded (the isomorphic-git walker stops at them). */
export interface HistoryCacheFile {
  version: 4;
  index: HistoryIndex;
  seen: string[];
  /** The ledger's commits (`log` without `--all`): commit → the skills it names or whose files it changed. */
  ledger: LedgerCommits;
  /** `.git/shallow` when the index was built: a clone deepened since has history the cache lacks. */
  shallow: string[];
}

export function historyCachePath(gitdir: string): string {
  return cacheFilePath(gitdir, 'history-index.json');
}

function isCacheFile(value: unknown): value is HistoryCacheFile {
  const file = value as Partial<HistoryCacheFile> | null;
  return (
    typeof file === 'object' &&
    file !== null &&
    // A cache from before the ledger map (1), before renames were kept (2) or followed through an edit (3) is rebuilt.
    file.version === 4 &&
    Array.isArray(file.seen) &&
    typeof file.ledger === 'object' &&
    file.ledger !== null &&
    Array.isArray(file.shallow) &&
    typeof file.index === 'object' &&
    file.index !== null &&
    file.index.version === 1 &&
    typeof file.index.skills === 'object' &&
    typeof file.index.deleted === 'object' &&
    // A cache from before `outside` was kept is rebuilt: its skills may date from a move.
    typeof file.index.outside === 'object' &&
    typeof file.index.head === 'string' &&
    typeof file.index.shallow === 'boolean'
  );
}

/** The cache, or null when it is missing, unreadable or from another version: the caller rebuilds. */
export async function readHistoryCache(gitdir: string): Promise<HistoryCacheFile | null> {
  try {
    const parsed: unknown = JSON.parse(await readFile(historyCachePath(gitdir), 'utf8'));
    return isCacheFile(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** Whole or not at all: a reader sees the old cache or the new one, never half of one. */
export async function writeHistoryCache(gitdir: string, cache: HistoryCacheFile): Promise<void> {
  writeFileAtomic(historyCachePath(gitdir), JSON.stringify(cache));
}
