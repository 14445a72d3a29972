import type { UsageCounters, UsageKind } from '../core/registry/types.js';
import { bumpUsage } from '../services/usage.js';
import { readUsageSnapshot } from '../store/usage-files.js';
import type { UsageStore } from './usage-store.js';

export interface RepoUsageOptions {
  repoDir: string;
  skillsDir: string;
  /** This process's writer id (see `defaultWriterId`). */
  writer: string;
  now: () => Date;
}

/**
 * Usage in the repository (DESIGN §5): totals from every writer's committed
 * file; bumps recorded as this writer's pending bumps, which `usage flush`
 * commits in one batch. Bumps recorded here show in the registry at once (it
 * keeps its own running totals) and in other processes after a flush.
 */
export function createRepoUsageStore(options: RepoUsageOptions): UsageStore {
  return {
    async totals(): Promise<Map<string, UsageCounters>> {
      // A broken usage file is reported by `usage show` and skipped here: telemetry never stops the runtime.
      return readUsageSnapshot(options.repoDir, { skillsDir: options.skillsDir, now: options.now() }).totals;
    },
    async record(name: string, kind: UsageKind, at: Date): Promise<void> {
      await bumpUsage(options.repoDir, options.writer, { skill: name, kind, at: at.toISOString() });
    },
  };
}
