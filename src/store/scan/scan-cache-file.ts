import { ScanCache, ruleSetVersion } from '../../core/scan/scan-cache.js';
import type { ScanConfig } from '../../core/scan/config.js';
import { readRepoLayout } from '../../ledger/git-dir.js';
import { cacheFilePath, readCacheFile, writeCacheFile } from '../cache-file.js';
import type { ContentCache } from './scan-skill-dir.js';
import { readTrackedBlobs } from './tracked-blobs.js';

/** A run's scan cache, with where it is written back. */
export interface PersistedScanCache extends ContentCache {
  /** Writes what the run added; a no-op when nothing was. */
  save(): void;
}

export const scanCacheFileName = 'scan-cache.json';

/**
 * Opens `.git/skillgarden/scan-cache.json` of the repository at `repo`, for
 * the rule set and limits of `config`. Undefined outside a git repository:
 * there is nowhere to keep it that `git status` would not show.
 */
export async function openScanCache(repo: string, config: ScanConfig): Promise<PersistedScanCache | undefined> {
  let layout;
  try {
    layout = await readRepoLayout(repo);
  } catch {
    return undefined;
  }
  const file = cacheFilePath(layout.gitdir, scanCacheFileName);
  const cache = new ScanCache(readCacheFile(file), `${ruleSetVersion()}:${config.limits.maxFileBytes}`);
  return {
    cache,
    tracked: readTrackedBlobs(layout.dir, layout.gitdir),
    save: () => {
      if (cache.changed) writeCacheFile(file, cache.toData());
    },
  };
}
