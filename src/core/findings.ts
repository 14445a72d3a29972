/** How bad a finding is. `error` fails validation; `warning` and `info` do not. */
export type Severity = 'error' | 'warning' | 'info';

/**
 * A content problem, reported as data. Validators never throw: every problem
 * in a SKILL.md or support file becomes one of these, with a position and a
 * hint that says what to do next.
 */
export interface Finding {
  /** Stable identifier, `area/rule-name`, e.g. `skill/name-mismatch`. Tests assert codes, never wording. */
  code: string;
  severity: Severity;
  /** Path as the user named it (relative to the repository root where there is one). */
  file: string;
  /** 1-based; 0 when the finding is about the whole file. */
  line: number;
  /** 1-based; 0 when the finding is about the whole line or file. */
  column: number;
  message: string;
  hint: string;
}

export type FindingInput = Omit<Finding, 'line' | 'column'> & { line?: number; column?: number };

export function finding(input: FindingInput): Finding {
  return {
    code: input.code,
    severity: input.severity,
    file: input.file,
    line: input.line ?? 0,
    column: input.column ?? 0,
    message: input.message,
    hint: input.hint,
  };
}

const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Orders findings as a compiler would print them: by file, then position, then severity. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
    a.line - b.line ||
    a.column - b.column ||
    severityRank[a.severity] - severityRank[b.severity] ||
    (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)
  );
}

export function hasErrors(findings: readonly Finding[]): boolean {
  return findings.some((f) => f.severity === 'error');
}

/** Shortens user input echoed into a message so a 10 MB value cannot flood a terminal. */
export function excerpt(text: string, max = 60): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}
