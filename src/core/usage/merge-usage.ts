import { countKeys, emptyCounters, timeKeys, type UsageCounters, type UsageFile, type UsageKind } from './types.js';

/** Totals over every writer: the sum of counts and the latest of times (a grow-only counter, so files merge without conflict). */
export function mergeUsage(files: readonly Pick<UsageFile, 'skills'>[]): Map<string, UsageCounters> {
  const totals = new Map<string, UsageCounters>();
  for (const file of files) {
    for (const [name, counters] of Object.entries(file.skills)) {
      const total = totals.get(name) ?? emptyCounters();
      for (const key of countKeys) if (counters[key]) total[key] = (total[key] ?? 0) + (counters[key] ?? 0);
      for (const key of timeKeys) {
        const time = counters[key];
        if (time && (!total[key] || time > total[key])) total[key] = time;
      }
      const generation = counters.last_reused_patch_generation;
      if (generation !== undefined && generation > (total.last_reused_patch_generation ?? -1))
        total.last_reused_patch_generation = generation;
      totals.set(name, total);
    }
  }
  return totals;
}

/**
 * One bump applied to a writer's counters. A use after the skill's patch count
 * (summed over every writer, `patchGeneration`) grew since the last recorded
 * reuse is a reuse after patch.
 */
export function applyBump(counters: Partial<UsageCounters>, kind: UsageKind, at: string, patchGeneration: number): Partial<UsageCounters> {
  const next = { ...counters };
  if (kind === 'use') {
    next.use_count = (next.use_count ?? 0) + 1;
    next.last_used_at = later(next.last_used_at, at);
    if (patchGeneration > 0 && patchGeneration > (next.last_reused_patch_generation ?? 0)) {
      next.reuse_after_patch_count = (next.reuse_after_patch_count ?? 0) + 1;
      next.last_reused_patch_generation = patchGeneration;
    }
  } else if (kind === 'view') {
    next.view_count = (next.view_count ?? 0) + 1;
    next.last_viewed_at = later(next.last_viewed_at, at);
  } else {
    next.patch_count = (next.patch_count ?? 0) + 1;
    next.last_patched_at = later(next.last_patched_at, at);
  }
  return next;
}

function later(a: string | undefined, b: string): string {
  return a !== undefined && a > b ? a : b;
}

/**
 * A skill's counters with the last patch Git recorded (an agent's or a person's commit to it, from the history index):
 * a patch counts whether a usage file or only a commit recorded it. The curator, `list`, `show`, the reminder and MCP
 * all read activity through this, so they agree on `inactive`.
 */
export function withCommittedPatch(counters: UsageCounters | undefined, committedAt: string | undefined): UsageCounters | undefined {
  if (committedAt === undefined) return counters;
  const filed = counters?.last_patched_at;
  const latest = filed !== undefined && Date.parse(filed) >= Date.parse(committedAt) ? filed : committedAt;
  return { ...(counters ?? emptyCounters()), last_patched_at: latest };
}

/** The latest of use, view and patch: what the lifecycle calls activity. */
export function lastActivity(counters: Partial<UsageCounters> | undefined): string | undefined {
  if (!counters) return undefined;
  return [counters.last_used_at, counters.last_viewed_at, counters.last_patched_at]
    .filter((t): t is string => !!t)
    .sort()
    .at(-1);
}
