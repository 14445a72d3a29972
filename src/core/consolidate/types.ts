import type { Provenance } from '../lifecycle/types.js';

/** Who made a skill (DESIGN §4); only `agent` (or adopted) skills may be consolidated. */
export type { Provenance };

/** A file of a skill folder; `path` is relative to the folder. */
export interface SkillFile {
  path: string;
  content: Uint8Array | string;
}

/** A skill as the planner sees it: its whole package, and what may be done to it. */
export interface CuratedSkill {
  name: string;
  category?: string;
  /** Repository-relative folder, e.g. `skills/ops/deploy-staging`. */
  dir: string;
  /** The SKILL.md text. */
  text: string;
  /** Support files (everything in the folder but SKILL.md). */
  files: readonly SkillFile[];
  provenance: Provenance;
  adopted?: boolean;
  pinned: boolean;
  protected?: boolean;
}

/** A file matched by the `references` globs (e.g. a scheduled-job definition). */
export interface ReferenceFile {
  path: string;
  text: string;
}

export type PlanKind = 'merge' | 'create' | 'demote';

export interface PairSimilarity {
  a: string;
  b: string;
  /** Estimated Jaccard similarity of the content shingles (MinHash). */
  jaccard: number;
}

/** Why the members of a cluster belong together, in terms a reviewer can check. */
export interface ClusterEvidence {
  /** The kebab-case name prefix every member shares, or null. */
  prefix: string | null;
  similarities: PairSimilarity[];
  sharedTools: string[];
  sharedPaths: string[];
}

export interface Cluster {
  /** Member names, sorted. */
  members: string[];
  evidence: ClusterEvidence;
}

/** One file the plan writes (`content`) or removes (`null`), repository-relative. */
export interface PlannedChange {
  path: string;
  content: Uint8Array | string | null;
}

export interface ArchiveMove {
  name: string;
  from: string;
  to: string;
}

export interface ConsolidationPlan {
  kind: PlanKind;
  /** The umbrella's name. */
  into: string;
  /** The umbrella's folder, repository-relative. */
  intoDir: string;
  /** Absorbed skills, in section order (the umbrella itself excluded). */
  from: string[];
  reason: string;
  evidence: ClusterEvidence;
  archived: ArchiveMove[];
  /** Files outside the plan's skills whose references to merged names were rewritten. */
  rewritten: string[];
  /**
   * Files of skills nobody may touch (pinned, bundled, hub, protected, a
   * person's) that mention a merged name: left as they are, for a person to fix.
   */
  mentionsLeft: string[];
  /** Members whose body went to `references/<member>.md` behind a short section. */
  demoted: string[];
  /** Members whose body the umbrella already held word for word (names aside): archived, nothing of them copied. */
  collapsed?: string[];
  /** Members mostly in the umbrella already: their section holds only the paragraphs that differ. */
  nearCopies?: string[];
  /** Lines of the umbrella that still name an absorbed skill (`SKILL.md:<line>: <text>`): for the reviewer to reword. */
  pointers?: string[];
  changes: PlannedChange[];
}

/** A cluster or member left out, with the reason a person can act on. */
export interface SkippedItem {
  names: string[];
  reason: string;
}

export interface DroppedPlan {
  plan: ConsolidationPlan;
  problems: string[];
}

export interface ConsolidationResult {
  clusters: Cluster[];
  /** Plans that passed the guard. */
  plans: ConsolidationPlan[];
  /** Plans the guard refused: never applied, reported with the reasons. */
  dropped: DroppedPlan[];
  skipped: SkippedItem[];
}
