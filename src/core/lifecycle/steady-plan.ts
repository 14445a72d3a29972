import { isCurated, needsSeed, planLifecycle } from './plan-lifecycle.js';
import type { LifecycleCounts, LifecycleDecision, LifecyclePlan, LifecycleSettings, LifecycleSkill } from './types.js';

const dayMs = 86_400_000;

/**
 * One skill's verdict from an earlier pass: the inputs it was decided on (as a key), the decision, and
 * the span of clock times over which the same inputs give the same decision ([from, until), null: unbounded).
 */
export interface SteadyEntry {
  key: string;
  decision: LifecycleDecision;
  from: number | null;
  until: number | null;
}

export interface SteadyPlan {
  plan: LifecyclePlan;
  /** The verdicts to keep for the next pass, by skill name. */
  entries: Record<string, SteadyEntry>;
  /** Skills decided afresh (the rest reused their verdict). */
  planned: number;
  /** The earliest time at which a verdict changes with nothing else changed (a stale or archive threshold), or null. */
  nextChangeAt: number | null;
}

/** What the lifecycle reads of one skill, as one string: equal keys, equal inputs. */
export function steadyKey(skill: LifecycleSkill): string {
  const usage = skill.usage ?? {};
  return JSON.stringify([
    skill.provenance,
    skill.adoptedAt ?? null,
    skill.pinned,
    skill.referenced,
    skill.createdAt ?? null,
    usage.last_used_at ?? null,
    usage.last_viewed_at ?? null,
    usage.last_patched_at ?? null,
    skill.record?.state ?? null,
    skill.record?.seeded_at ?? null,
  ]);
}

/** The settings the verdicts hold for: other settings, other verdicts. */
export function settingsKey(settings: LifecycleSettings): string {
  return JSON.stringify([settings.stale_after_days, settings.archive_after_days, settings.prune_bundled, [...settings.protected].sort()]);
}

/**
 * `planLifecycle` with the verdicts of the last pass reused wherever a skill's inputs are the same and the
 * clock has crossed none of its thresholds: the same plan, with work in proportion to what changed.
 * `previous` must come from a pass under the same settings (the caller keys it by `settingsKey`).
 */
export function planSteady(
  previous: Readonly<Record<string, SteadyEntry>>,
  skills: readonly LifecycleSkill[],
  settings: LifecycleSettings,
  now: Date,
): SteadyPlan {
  const time = now.getTime();
  const keys = skills.map(steadyKey);
  const reused = skills.map((skill, i) => {
    const entry = previous[skill.name];
    return entry !== undefined && entry.key === keys[i] && within(entry, time) ? entry : undefined;
  });
  const fresh = planLifecycle(
    skills.filter((_, i) => reused[i] === undefined),
    settings,
    now,
  );
  const plan: LifecyclePlan = { decisions: [], seeds: fresh.seeds, counts: { ...fresh.counts } };
  const entries: Record<string, SteadyEntry> = {};
  let next = 0;
  let nextChangeAt: number | null = null;
  skills.forEach((skill, i) => {
    const entry = reused[i] ?? freshEntry(skill, keys[i] as string, fresh.decisions[next++] as LifecycleDecision, settings, time);
    if (reused[i] !== undefined) count(plan.counts, entry.decision);
    plan.decisions.push(entry.decision);
    entries[skill.name] = entry;
    if (entry.until !== null && (nextChangeAt === null || entry.until < nextChangeAt)) nextChangeAt = entry.until;
  });
  return { plan, entries, planned: fresh.decisions.length, nextChangeAt };
}

function within(entry: SteadyEntry, time: number): boolean {
  return (entry.from === null || time >= entry.from) && (entry.until === null || time < entry.until);
}

/** A reused verdict adds to the counts as `planLifecycle` would have (it has no seed: a seeding verdict is never kept). */
function count(counts: LifecycleCounts, decision: LifecycleDecision): void {
  if (decision.kind === 'skip' && decision.reason === 'not-curated') return;
  counts.checked++;
  if (decision.kind !== 'transition') return;
  if (decision.to === 'stale') counts.marked_stale++;
  else if (decision.to === 'archived') counts.archived++;
  else counts.reactivated++;
}

/**
 * The span of clock times with the same verdict. The lifecycle compares the anchor with two cutoffs
 * (`at <= now - days`), so the verdict changes only when `now` reaches `at + stale days` or
 * `at + archive days`. A verdict anchored on the clock itself (a seed written now, no clock at all)
 * holds for this instant only: it is never kept.
 */
function freshEntry(
  skill: LifecycleSkill,
  key: string,
  decision: LifecycleDecision,
  settings: LifecycleSettings,
  time: number,
): SteadyEntry {
  if (!isCurated(skill, settings) || skill.pinned || skill.referenced) return { key, decision, from: null, until: null };
  const anchor = decision.anchor;
  if (needsSeed(skill) || anchor === undefined || !hasClock(skill)) return { key, decision, from: time, until: time };
  const at = Date.parse(anchor);
  const thresholds = [at + settings.stale_after_days * dayMs, at + settings.archive_after_days * dayMs];
  const from = Math.max(...thresholds.filter((t) => t <= time));
  const until = Math.min(...thresholds.filter((t) => t > time));
  return { key, decision, from: Number.isFinite(from) ? from : null, until: Number.isFinite(until) ? until : null };
}

function hasClock(skill: LifecycleSkill): boolean {
  const u = skill.usage;
  return [u?.last_used_at, u?.last_viewed_at, u?.last_patched_at, skill.createdAt, skill.adoptedAt, skill.record?.seeded_at].some(
    (t) => t !== undefined,
  );
}
