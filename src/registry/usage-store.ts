import type { UsageCounters, UsageKind } from '../core/registry/types.js';

/**
 * Where the registry reads usage totals and records uses and views. The real
 * one (per-writer files under `.skillgarden/usage/`) plugs in here; names are
 * always canonical (folder) names.
 */
export interface UsageStore {
  totals(): Promise<Map<string, UsageCounters>>;
  record(name: string, kind: UsageKind, at: Date): Promise<void>;
}

/** Adds one use or view to counters, as a grow-only counter does. */
export function bumpCounters(counters: UsageCounters | undefined, kind: UsageKind, at: Date): UsageCounters {
  const next: UsageCounters = { ...counters };
  const time = at.toISOString();
  if (kind === 'use') {
    next.use_count = (next.use_count ?? 0) + 1;
    next.last_used_at = latest(next.last_used_at, time);
  } else {
    next.view_count = (next.view_count ?? 0) + 1;
    next.last_viewed_at = latest(next.last_viewed_at, time);
  }
  return next;
}

function latest(a: string | undefined, b: string): string {
  return a !== undefined && a > b ? a : b;
}

/** Usage kept in memory: for tests and for hosts that do not persist usage. */
export function createMemoryUsageStore(initial: Record<string, UsageCounters> = {}): UsageStore & { snapshot(): Map<string, UsageCounters> } {
  const counts = new Map(Object.entries(initial).map(([name, c]) => [name, { ...c }]));
  return {
    async totals() {
      return new Map([...counts].map(([name, c]) => [name, { ...c }]));
    },
    async record(name, kind, at) {
      counts.set(name, bumpCounters(counts.get(name), kind, at));
    },
    snapshot() {
      return new Map(counts);
    },
  };
}
