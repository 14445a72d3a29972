import type { CuratorState } from '../config/state.js';
import type { LifecycleDecision } from './types.js';

/** The state after one decision: stale marks added or removed, archived skills forgotten (the tree says where they are). */
export function applyDecision(state: CuratorState, decision: LifecycleDecision, now: string): CuratorState {
  if (decision.kind !== 'transition') return state;
  const skills = { ...state.skills };
  const record = { ...skills[decision.name] };
  if (decision.to === 'archived') {
    delete skills[decision.name];
  } else if (decision.to === 'stale') {
    skills[decision.name] = { ...record, state: 'stale', since: now };
  } else {
    const { state: _state, since: _since, ...rest } = record;
    if (Object.keys(rest).length > 0) skills[decision.name] = rest;
    else delete skills[decision.name];
  }
  return { ...state, skills };
}

export function applySeeds(state: CuratorState, names: readonly string[], now: string): CuratorState {
  if (names.length === 0) return state;
  const skills = { ...state.skills };
  for (const name of names) skills[name] = { ...skills[name], seeded_at: now };
  return { ...state, skills };
}
