import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReadKind, UsageCounters } from '../core/usage/index.js';
import { readGitDir } from '../ledger/git-dir.js';
import { bumpUsage } from '../services/usage.js';
import { readUsageSnapshot } from '../store/usage-files.js';
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
      // A broken usage file is reported by `usage show` and skipped here: telemetry never stops the runtime.
      const totals: Map<string, UsageCounters> = readUsageSnapshot(options.repoDir, {
        skillsDir: options.skillsDir,
        now: options.now(),
      }).totals;
      for (const bump of await readPendingBumps(options.repoDir, options.writer)) {
        totals.set(bump.skill, bumpCounters(totals.get(bump.skill), bump.kind, new Date(bump.at)));
      }
      return totals;
    },
    async record(name: string, kind: ReadKind, at: Date): Promise<void> {
      await bumpUsage(options.repoDir, options.writer, { skill: name, kind, at: at.toISOString() });
    },
  };
}

/** The writer's pending bumps, as `bumpUsage` appends them (JSON lines); a torn or foreign line is skipped. */
async function readPendingBumps(repoDir: string, writer: string): Promise<{ skill: string; kind: ReadKind; at: string }[]> {
  let text: string;
  try {
    text = readFileSync(join(await readGitDir(repoDir), 'skillgarden', 'usage-pending', `${writer}.jsonl`), 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').flatMap((line) => {
    try {
      const bump = JSON.parse(line) as { skill?: unknown; kind?: unknown; at?: unknown };
      const valid =
        typeof bump.skill === 'string' &&
        (bump.kind === 'use' || bump.kind === 'view') &&
        typeof bump.at === 'string' &&
        !Number.isNaN(Date.parse(bump.at));
      return valid ? [bump as { skill: string; kind: ReadKind; at: string }] : [];
    } catch {
      return [];
    }
  });
}
