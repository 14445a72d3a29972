import type { ReadKind, UsageCounters } from '../core/usage/index.js';
import { readGitDir } from '../ledger/git-dir.js';
import { bumpUsage, readActivityTotals } from '../services/usage.js';
import { readPendingBumps } from '../store/usage-files.js';
import { bumpCounters, type UsageStore } from './usage-store.js';

export interface RepoUsageOptions {
  repoDir: string;
  skillsDir: string | readonly string[];
  /** This process's writer id (see `defaultWriterId`). */
  writer: string;
  now: () => Date;
}

/**
 * Usage in the repository (DESIGN §5): totals from every writer's committed
 * file plus this writer's pending bumps (not yet flushed by `usage flush`),
 * so a restart or a refresh never forgets a use; bumps are recorded as
 * pending bumps, which `usage flush` commits in one batch.
 */
export function createRepoUsageStore(options: RepoUsageOptions): UsageStore {
  return {
    async totals(): Promise<Map<string, UsageCounters>> {
      // A broken usage file is reported by `usage show` and skipped here: telemetry never stops the runtime. Activity
      // as the curator reads it (a committed patch counts), so the reminder and MCP agree with `list` on `inactive`.
      const totals = await readActivityTotals(options.repoDir, { skillsDir: options.skillsDir, now: options.now() });
      const gitDir = await readGitDir(options.repoDir).catch(() => undefined);
      for (const bump of gitDir === undefined ? [] : readPendingBumps(gitDir, options.writer)) {
        // A patch is counted when flushed (its generation needs every writer's count); the runtime records uses and views.
        if (bump.kind === 'patch') continue;
        totals.set(bump.skill, bumpCounters(totals.get(bump.skill), bump.kind, new Date(bump.at)));
      }
      return totals;
    },
    async record(name: string, kind: ReadKind, at: Date): Promise<void> {
      await bumpUsage(options.repoDir, options.writer, { skill: name, kind, at: at.toISOString() });
    },
  };
}
