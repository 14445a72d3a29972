/** The transcript formats the readers understand. */
export type TranscriptFormat = 'claude-code' | 'codex' | 'gemini' | 'chat' | 'swe-agent' | 'openhands' | 'hermes' | 'compact';

export const transcriptFormats: readonly TranscriptFormat[] = [
  'claude-code',
  'codex',
  'gemini',
  'chat',
  'swe-agent',
  'openhands',
  'hermes',
  'compact',
];

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
  /** ISO-8601 when the transcript records it. */
  time?: string;
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
}

/** Input that was not used, counted per file and reason. Nothing is skipped silently. */
export interface Skipped {
  file: string;
  reason: string;
  count: number;
}

/** A repeated tool-call sequence found across sessions. */
export interface Pattern {
  tools: string[];
  /** Number of sessions the sequence occurs in. */
  sessions: number;
  confidence: number;
  fingerprint: string;
}

/** A SKILL.md proposal drafted from a pattern. Data only: never written by the drafter. */
export interface DraftSkill {
  name: string;
  fingerprint: string;
  text: string;
}

export interface DetectedPattern extends Pattern {
  /** Absent when the pattern is already covered by an existing skill. */
  draft?: DraftSkill;
  /** Why no draft was made, when there is none. */
  coveredBy?: string;
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
