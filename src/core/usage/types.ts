/** Counters for one skill (DESIGN §5). Absent counts are zero; absent times mean never. */
export interface UsageCounters {
  use_count: number;
  view_count: number;
  patch_count: number;
  last_used_at?: string;
  last_viewed_at?: string;
  last_patched_at?: string;
  /** The patch count at the last use: a use after it grew is a reuse after patch. */
  last_reused_patch_generation?: number;
  /** How many uses came after a patch: the evidence that a self-improvement worked. */
  reuse_after_patch_count?: number;
}

/** `.skillgarden/usage/<writer-id>.json`: one writer's counters, only ever written by that writer. */
export interface UsageFile {
  version: 1;
  writer: string;
  skills: Record<string, Partial<UsageCounters>>;
}

export type UsageKind = 'use' | 'view' | 'patch';

/** What the runtime records when an agent reads a skill; patches are counted by the writes that make them. */
export type ReadKind = Exclude<UsageKind, 'patch'>;

export const countKeys = ['use_count', 'view_count', 'patch_count', 'reuse_after_patch_count'] as const;
export const timeKeys = ['last_used_at', 'last_viewed_at', 'last_patched_at'] as const;

export function emptyCounters(): UsageCounters {
  return { use_count: 0, view_count: 0, patch_count: 0 };
}
