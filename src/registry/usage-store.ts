import { applyBump, emptyCounters, type ReadKind, type UsageCounters } from '../core/usage/index.js';

/**
 * Where the registry reads usage totals and records uses and views. The real
 * one (per-writer files under `.skillgarden/usage/`) plugs in here; names are
 * always canonical (folder) names.
 */
export interface UsageStore {
  totals(): Promise<Map<string, UsageCounters>>;
  record(name: string, kind: ReadKind, at: Date): Promise<void>;
}

/** Adds one use or view to counters, as a grow-only counter does (the usage core's arithmetic). */
export function bumpCounters(counters: UsageCounters | undefined, kind: ReadKind, at: Date): UsageCounters {
  return { ...emptyCounters(), ...applyBump({ ...counters }, kind, at.toISOString(), 0) };
}

/** Usage kept in memory: for tests and for hosts that do not persist usage. */
export function createMemoryUsageStore(
  initial: Record<string, Partial<UsageCounters>> = {},
): UsageStore & { snapshot(): Map<string, UsageCounters> } {
  const counts = new Map(Object.entries(initial).map(([name, c]) => [name, { ...emptyCounters(), ...c }]));
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
