import { builtinRuleSetVersion } from '../../core/scan/rule-set-version.generated.js';
import { ScanCache } from '../../core/scan/scan-cache.js';
import type { ScanConfig } from '../../core/scan/config.js';
import { openRepoCache } from '../repo-cache.js';
import type { ContentCache } from './scan-skill-dir.js';
import { readTrackedBlobs } from './tracked-blobs.js';

/** A run's scan cache, with where it is written back. */
export interface PersistedScanCache extends ContentCache {
  /** Writes what the run added; a no-op when nothing was. */
  save(): void;
}

export const scanCacheFileName = 'scan-cache.json';

/** Opens `.git/skillgarden/scan-cache.json` for the rule set and limits of `config` (undefined outside a git repository). */
export async function openScanCache(repo: string, config: ScanConfig): Promise<PersistedScanCache | undefined> {
  const file = await openRepoCache(repo, scanCacheFileName);
  if (!file) return undefined;
  const cache = new ScanCache(file.data, `${builtinRuleSetVersion}:${config.limits.maxFileBytes}`);
  return {
    cache,
    tracked: readTrackedBlobs(file.dir, file.gitdir),
    save: () => {
      if (cache.changed) file.save(cache.toData());
    },
  };
}
