import { normalizeSkillsRoots, type SkillRoots } from './skill-paths.js';
import type { Actor, SkillAction, Source } from './trailers.js';

/**
 * Provenance known from history alone; `bundled` and `hub` come from files, layered on later.
 * `agent`: created by the agent in the background or by the curator, or adopted.
 */
export type HistoryProvenance = 'agent' | 'user';

export interface LedgerEvent {
  commit: string;
  time: string;
}

export interface CreationEvent extends LedgerEvent {
  actor: Actor;
  source: Source | null;
  action: SkillAction | null;
}

export interface PinEvent extends LedgerEvent {
  pinned: boolean;
}

/** What history says about one skill present at the head (active or archived). */
export interface SkillHistory {
  name: string;
  /** The skill's folder at the head, repository-relative. */
  folder: string;
  archived: boolean;
  created: CreationEvent;
  adopted: LedgerEvent | null;
  provenance: HistoryProvenance;
  /** The last patch, edit, write-file, remove-file or merge commit, or a plain git edit, that changed its files. */
  lastPatched: LedgerEvent | null;
  lastArchived: LedgerEvent | null;
  lastRestored: LedgerEvent | null;
  /** The last pin or unpin commit naming it. */
  pin: PinEvent | null;
  /** The names it had before, oldest first: its SKILL.md moved, unchanged, from a folder of another name. */
  renamedFrom?: string[];
}

export interface HistoryIndex {
  version: 1;
  /** The skill roots the index was folded over, normalized and sorted (`normalizeSkillsRoots`). */
  skillsRoots: string[];
  /** The commit the index describes; null for a repository without commits. */
  head: string | null;
  /** Commits folded so far. */
  commits: number;
  /**
   * History is cut (a shallow clone, as CI checks out by default): skills from before the cut
   * have an unknown creation and count as `user`, the provenance the curator never touches.
   */
  shallow: boolean;
  /** By skill name, sorted. */
  skills: Record<string, SkillHistory>;
  /** Skills deleted, as they were: a rollback that brings one back brings back its history too. */
  deleted: Record<string, SkillHistory>;
  /**
   * SKILL.md files outside the skills root, by path: when each first appeared. A library moved
   * into its root (`pdf/` to `skills/pdf/`) keeps the creation of its skills.
   */
  outside: Record<string, CreationEvent>;
}

export function emptyHistoryIndex(skillsRoots: SkillRoots): HistoryIndex {
  return {
    version: 1,
    skillsRoots: normalizeSkillsRoots(skillsRoots),
    head: null,
    commits: 0,
    shallow: false,
    skills: {},
    deleted: {},
    outside: {},
  };
}
