/**
 * The evidence report: what skills do in real sessions, read from transcripts and the library's history.
 * The contract shared by the `evidence` command, the curator (which acts on it), the Action's report
 * and the MCP server. Every figure carries the count it stands on; below `min_sessions` a rate is null.
 */

/** How one group of sessions went: sessions that loaded a skill (`with`) or did its procedure without it (`without`). */
export interface OutcomeFigures {
  sessions: number;
  /** Median tool calls per session; null with no sessions. */
  median_calls: number | null;
  /** Calls whose result was marked as an error, over all calls of these sessions; null below the minimum count. */
  error_rate: number | null;
  /** Median count of a call repeated right after it failed (same tool and detail), per session; null with no sessions. */
  median_retries: number | null;
  /** Sessions whose last calls ran tests that passed (the last test run not marked as an error). */
  ended_tests_passing: number;
  /** Sessions that ended in a commit. */
  ended_commit: number;
}

/** Why a session counts as a miss of a skill. */
export type MissKind = 'procedure' | 'words';

/** One session that needed a skill and did not load it. */
export interface MissedSession {
  session: string;
  /** The transcript file, relative to the transcript root (never an absolute path). */
  file: string;
  by: MissKind;
  /** What the person asked (redacted, trimmed), when the session says. */
  request?: string;
  time?: string;
}

/** After an agent patched the skill: was it loaded again, and did its sessions change. */
export interface AfterPatch {
  /** When the last agent patch landed (commit time). */
  patched_at: string;
  loaded_before: number;
  loaded_after: number;
  missed_before: number;
  missed_after: number;
  /** `with` figures of the sessions after the patch. */
  with_after: OutcomeFigures;
}

export type Certainty = 'none' | 'low' | 'enough';

export interface SkillEvidence {
  name: string;
  /** Where the skill comes from (`agent`, `person`, `hub`, …), as the curator reads it from history. */
  provenance?: string;
  /** Sessions in which the skill existed, by history at the session's time (sessions without a time count when the skill exists now). */
  offered: number;
  /** Sessions that loaded it: Skill tool, slash command, load tools, reads of its SKILL.md. */
  loaded: number;
  /** Sessions that did not load it but did its procedure or asked for it in its description's words. */
  missed: number;
  /** loaded / (loaded + missed); null when loaded + missed is below the minimum count. */
  trigger_rate: number | null;
  /** How sure the figures are: `none` (no sessions), `low` (below the minimum count), `enough`. */
  certainty: Certainty;
  with: OutcomeFigures;
  without: OutcomeFigures;
  /** The missed sessions, newest first (at most 20), with what people asked: the words a description proposal uses. */
  missed_sessions: MissedSession[];
  after_patch?: AfterPatch;
}

/** A skill's listing as a client sees it: what counts against the client's budget. */
export interface ListedSkill {
  name: string;
  description: string;
  when_to_use?: string;
  loaded: number;
  /** Sessions that needed it and did not load it (budget advice never offers such a description for shrinking). */
  missed?: number;
  /** ISO time of the last load seen, if any (clients drop least-used first). */
  last_loaded?: string;
}

export type ListingClient = 'claude-code' | 'codex' | 'gemini-cli';

/** Which descriptions fit a client's listing budget and which fall out, in the order the client ranks them. */
export interface ListingBudget {
  client: ListingClient;
  /** The budget in characters and where that figure comes from (docs/listing-budget.md). */
  limit_chars: number;
  source: string;
  used_chars: number;
  fits: string[];
  dropped: string[];
  /** What would bring the library within the budget, ranked by evidence (e.g. planned merges, descriptions that could shrink). */
  advice: string[];
}

/** Input that was not counted, with its reason: nothing is dropped silently. */
export interface EvidenceSkip {
  file?: string;
  /** A skill named in a session that is not in the library (nor in its history). */
  skill?: string;
  reason: string;
  count: number;
}

/** The `evidence --json` report. */
export interface EvidenceReport {
  /** ISO time the report treats as now. */
  now: string;
  since?: string;
  sessions: number;
  calls: number;
  files: number;
  /** The minimum sessions a rate stands on. */
  min_sessions: number;
  skills: SkillEvidence[];
  budget: Partial<Record<ListingClient, ListingBudget>>;
  skipped: EvidenceSkip[];
}
