import type { CuratorState } from '../config/state.js';
import type { LifecycleDecision, SkillStateRecord } from './types.js';

/** The state after one decision: stale marks added or removed, archived skills forgotten (the tree says where they are). */
export function applyDecision(state: CuratorState, decision: LifecycleDecision, now: string): CuratorState {
  if (decision.kind !== 'transition') return state;
  const skills = { ...state.skills };
  const record = recordAfter(skills[decision.name], decision, now);
  if (record) skills[decision.name] = record;
  else delete skills[decision.name];
  return { ...state, skills };
}

/** A skill's record after a transition; `undefined` when nothing is left to remember. */
export function recordAfter(
  current: SkillStateRecord | undefined,
  decision: LifecycleDecision & { kind: 'transition' },
  now: string,
): SkillStateRecord | undefined {
  const record = { ...current };
  if (decision.to === 'archived') return undefined;
  if (decision.to === 'stale') return { ...record, state: 'stale', since: now };
  const { state: _state, since: _since, ...rest } = record;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

export function applySeeds(state: CuratorState, names: readonly string[], now: string): CuratorState {
  if (names.length === 0) return state;
  const skills = { ...state.skills };
  for (const name of names) skills[name] = { ...skills[name], seeded_at: now };
  return { ...state, skills };
}
