import type { ConsolidationPlan } from '../consolidate/types.js';
import type { LifecycleDecision, LifecyclePlan } from '../lifecycle/types.js';

type Transition = LifecycleDecision & { kind: 'transition' };

/** A lifecycle transition held back because an umbrella proposal of the same run changes the skill. */
export interface DeferredTransition {
  skill: string;
  from: Transition['from'];
  to: Transition['to'];
  /** The umbrella whose proposal holds the skill (its `into`). */
  umbrella: string;
}

/**
 * Proposals never overlap (issue #15): a skill an umbrella proposal absorbs,
 * demotes or merges into is left out of the lifecycle transitions of the same
 * run. Marking stale or archiving a skill that a pending umbrella also moves
 * would make the two proposals conflict, and a reviewer would be asked twice
 * about one skill; the umbrella decides, and the lifecycle looks at the skill
 * again once the umbrella is merged or declined.
 */
export function separateFromUmbrellas(
  transitions: readonly Transition[],
  umbrellas: readonly ConsolidationPlan[],
): { kept: Transition[]; deferred: DeferredTransition[] } {
  const holder = new Map<string, string>();
  for (const plan of umbrellas)
    for (const name of [plan.into, ...plan.from, ...plan.demoted]) if (!holder.has(name)) holder.set(name, plan.into);
  const kept: Transition[] = [];
  const deferred: DeferredTransition[] = [];
  for (const t of transitions) {
    const umbrella = holder.get(t.name);
    if (umbrella === undefined) kept.push(t);
    else deferred.push({ skill: t.name, from: t.from, to: t.to, umbrella });
  }
  return { kept, deferred };
}

/** The lifecycle plan without the transitions an umbrella proposal holds back, its counters to match. */
export function holdBackForUmbrellas(
  plan: LifecyclePlan,
  umbrellas: readonly ConsolidationPlan[],
): { plan: LifecyclePlan; deferred: DeferredTransition[] } {
  const transitions = plan.decisions.filter((d): d is LifecycleDecision & { kind: 'transition' } => d.kind === 'transition');
  const { deferred } = separateFromUmbrellas(transitions, umbrellas);
  if (deferred.length === 0) return { plan, deferred };
  const held = new Set(deferred.map((d) => d.skill));
  const counts = { ...plan.counts };
  for (const d of deferred) {
    if (d.to === 'stale') counts.marked_stale--;
    else if (d.to === 'archived') counts.archived--;
    else counts.reactivated--;
  }
  return { plan: { ...plan, decisions: plan.decisions.filter((d) => d.kind !== 'transition' || !held.has(d.name)), counts }, deferred };
}
