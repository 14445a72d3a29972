import type { UsageCounters } from './types.js';

const hourMs = 3_600_000;

/** `ln(1 + uses) × 0.5^(age_hours / 168)`, age from the last use (0.1 h when there is none): orders the Layer-1 index. */
export function usageScore(counters: Partial<UsageCounters> | undefined, now: Date): number {
  const uses = counters?.use_count ?? 0;
  const last = counters?.last_used_at ? Date.parse(counters.last_used_at) : undefined;
  const ageHours = last === undefined ? 0.1 : Math.max(0, (now.getTime() - last) / hourMs);
  return Math.log(1 + uses) * 0.5 ** (ageHours / 168);
}

/** `ln(1 + uses) × 0.5^(days_since_last_use / 7)`, at least 0.8 for pinned skills. */
export function qualityScore(counters: Partial<UsageCounters> | undefined, now: Date, pinned: boolean): number {
  const uses = counters?.use_count ?? 0;
  const last = counters?.last_used_at ? Date.parse(counters.last_used_at) : undefined;
  const days = last === undefined ? 0 : Math.max(0, (now.getTime() - last) / (24 * hourMs));
  const quality = Math.log(1 + uses) * 0.5 ** (days / 7);
  return pinned ? Math.max(0.8, quality) : quality;
}

/** No use for 7 days: drops out of the Layer-1 index but stays loadable (derived, never stored). */
export function isInactive(counters: Partial<UsageCounters> | undefined, now: Date): boolean {
  const last = counters?.last_used_at;
  return last !== undefined && now.getTime() - Date.parse(last) >= 7 * 24 * hourMs;
}
