import type { UsageCounters } from '../usage/types.js';

export type Provenance = 'agent' | 'user' | 'bundled' | 'hub';
export type LifecycleState = 'active' | 'stale' | 'archived';

/** A skill's record in `.skillgarden/state.json`. */
export interface SkillStateRecord {
  state?: 'active' | 'stale';
  since?: string;
  seeded_at?: string;
}

/** Everything the lifecycle needs to know about one active (not archived) skill. */
export interface LifecycleSkill {
  name: string;
  provenance: Provenance;
  /** Brought under management by a person's `adopt`; the time it happened. */
  adoptedAt?: string;
  pinned: boolean;
  /** Its name appears in a file matched by the `references` globs. */
  referenced: boolean;
  /**
   * Folders or SKILL.md files elsewhere in the repository that are symbolic links to it (its aliases). Archiving it
   * would leave them pointing at nothing, so the curator marks it stale at most.
   */
  linkedFrom?: readonly string[];
  /** When history says it was created (the creating commit). */
  createdAt?: string;
  usage?: Partial<UsageCounters>;
  record?: SkillStateRecord;
  /**
   * Sessions that needed it and did not load it (the evidence report's `missed`): they did its procedure by hand or
   * asked for it in other words. Such a skill is not idle, whatever its clock says.
   */
  missed?: number;
}

export interface LifecycleSettings {
  stale_after_days: number;
  archive_after_days: number;
  prune_bundled: boolean;
  protected: readonly string[];
}

export type SkipReason = 'not-curated' | 'pinned' | 'referenced' | 'recent' | 'unchanged' | 'needed';

/** What the lifecycle decided for one skill: a transition, or why it was left alone. */
export type LifecycleDecision =
  | {
      name: string;
      kind: 'transition';
      from: LifecycleState;
      to: LifecycleState;
      anchor: string;
      anchorSource: AnchorSource;
      reason: string;
    }
  | { name: string; kind: 'skip'; state: LifecycleState; reason: SkipReason; detail: string; anchor?: string };

export type AnchorSource = 'use' | 'view' | 'patch' | 'created' | 'adopted' | 'seeded';

export interface LifecycleCounts {
  checked: number;
  marked_stale: number;
  archived: number;
  reactivated: number;
  seeded: number;
}

export interface LifecyclePlan {
  decisions: LifecycleDecision[];
  /** Seed records written for skills the curator sees for the first time under management. */
  seeds: string[];
  counts: LifecycleCounts;
}
