import type { UsageCounters } from './types.js';

const hourMs = 3_600_000;
/** Usage halves in weight every week (DESIGN §5). */
const halfLifeHours = 168;
/** Age used when a skill was never used: recent, so ln(1 + 0) = 0 decides anyway. */
const neverUsedAgeHours = 0.1;
export const inactiveAfterDays = 7;

/** `usage_score = ln(1 + uses) × 0.5^(age_hours / 168)`, age from the last use (0.1 h when there is none): orders the Layer-1 index. */
export function usageScore(counters: Partial<UsageCounters> | undefined, now: Date): number {
  const uses = Math.max(0, counters?.use_count ?? 0);
  const last = parseTime(counters?.last_used_at);
  const ageHours = last === undefined ? neverUsedAgeHours : Math.max(0, (now.getTime() - last) / hourMs);
  return Math.log1p(uses) * 0.5 ** (ageHours / halfLifeHours);
}

/**
 * Inactive (DESIGN §6) = used before, and no activity (use, view or patch) for 7 days: the skill drops out of the
 * Layer-1 index but stays loadable; derived, never stored. A never-used skill is not inactive: absence of evidence
 * must not hide a new skill before it had a chance to be used. A pinned skill is never inactive: a person asked to
 * keep it. `list` and the reminder both ask this.
 */
export function isInactive(counters: Partial<UsageCounters> | undefined, now: Date, options: { pinned?: boolean } = {}): boolean {
  if (options.pinned || !counters) return false;
  if ((counters.use_count ?? 0) <= 0 && parseTime(counters.last_used_at) === undefined) return false;
  const times = [counters.last_used_at, counters.last_viewed_at, counters.last_patched_at].map(parseTime).filter((t) => t !== undefined);
  if (times.length === 0) return false;
  return now.getTime() - Math.max(...times) >= inactiveAfterDays * 24 * hourMs;
}

function parseTime(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : time;
}
