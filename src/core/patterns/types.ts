import type { DraftEvals } from '../evals/types.js';

/** The transcript formats `detect` reads, once: the union is derived from this list. */
export const transcriptFormats = [
  'claude-code',
  'codex',
  'gemini',
  'cursor',
  'opencode',
  'cline',
  'chat',
  'swe-agent',
  'openhands',
  'hermes',
  'compact',
] as const;

export type TranscriptFormat = (typeof transcriptFormats)[number];

export function isTranscriptFormat(value: unknown): value is TranscriptFormat {
  return typeof value === 'string' && (transcriptFormats as readonly string[]).includes(value);
}

/**
 * One tool call, normalised. `shape` is a short argument shape (the sorted
 * argument keys); `program` is the first word of a shell command for tools
 * whose command is refined (e.g. `git` for `Bash {command: "git status"}`).
 */
export interface ToolCall {
  name: string;
  shape: string;
  program?: string;
  /**
   * What the call worked on, short: a shell command's head (`npm test -- --run`,
   * `git commit -m`), or a file tool's sub-command and file kind (`create *.py`).
   * Drafts take their steps' examples from it.
   */
  detail?: string;
  /** The commands chained after the first (`a && b; c` → the heads of `b` and `c`); absent for a lone command. */
  chain?: string[];
  /** ISO-8601 when the transcript records it. */
  time?: string;
  /** The tool's result was marked as an error (Claude Code `is_error`, a non-zero exit in Codex). Absent when not known to be one. */
  error?: true;
}

/** What a person asked in a session; `at` is how many tool calls came before it. */
export interface SessionRequest {
  text: string;
  at: number;
}

/** A skill loaded in a session: one use of that skill. */
export interface SkillUse {
  skill: string;
  session: string;
  time?: string;
}

/** One agent session: its tool calls in order. */
export interface TranscriptSession {
  id: string;
  file: string;
  format: TranscriptFormat;
  calls: ToolCall[];
  uses: SkillUse[];
  /** The person's messages, in order (tool results and harness notes left out). */
  requests: SessionRequest[];
}

/** Input that was not used, counted per file and reason. Nothing is skipped silently. */
export interface Skipped {
  file: string;
  reason: string;
  count: number;
  /** The first lines skipped for this reason (line formats; at most 10), so a person can open the file there. */
  lines?: number[];
}

/** A repeated tool-call sequence found across sessions. */
export interface Pattern {
  tools: string[];
  /** Number of sessions the sequence occurs in. */
  sessions: number;
  confidence: number;
  fingerprint: string;
}

/** Where a draft comes from, for the reviewer: which sessions, which files, when. */
export interface DraftEvidence {
  /** Session ids the sequence occurs in (all of them). */
  sessions: string[];
  /** Transcript files holding those sessions. */
  files: string[];
  first_seen?: string;
  last_seen?: string;
  /** What people asked before the sequence, a few examples (trimmed). */
  requests: string[];
  /** The words that recur in those requests, most sessions first. */
  task_words: string[];
  /** How the sequence ends: `tests`, `commit`, `release`, `submit`, or absent when nothing tells. */
  ending?: DraftEnding;
}

export type DraftEnding = 'tests' | 'commit' | 'release' | 'submit';

/** A SKILL.md proposal drafted from a pattern. Data only: never written by the drafter. */
export interface DraftSkill {
  name: string;
  fingerprint: string;
  text: string;
  /** Absent for drafts built without sessions (unit inputs). */
  evidence?: DraftEvidence;
  /** Fingerprints of nested or overlapping patterns of the same sessions folded into this draft. */
  absorbs?: string[];
  /** Its `evals/evals.json` and trigger queries, read from the sessions (absent for drafts built without sessions). */
  evals?: DraftEvals;
  /** What the optional LLM pass did: its rewrite used, or the deterministic draft kept and why. */
  llm?: { used: boolean; model: string; reason?: string };
}

export interface DetectedPattern extends Pattern {
  /** Absent when the pattern is covered by a skill, folded into another draft, or not worth one (see `reason`). */
  draft?: DraftSkill;
  /** The existing skill that covers it. */
  coveredBy?: string;
  /** The draft this pattern was folded into (nested or overlapping, same sessions). */
  collapsedInto?: string;
  /** Why no draft was made, in words a reviewer can check. */
  reason?: string;
}

/** The `detect --json` report (DESIGN §12), described by schemas/detect-report.schema.json. */
export interface DetectReport {
  sessions: number;
  calls: number;
  files: number;
  skipped: Skipped[];
  patterns: DetectedPattern[];
  uses: SkillUse[];
}
