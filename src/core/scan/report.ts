import { finding, type Finding, type Severity } from '../findings.js';
import { escapeControl as e } from '../report/escape-text.js';
import type { PolicyDecision, ScanFinding, ScanProvenance, ScanSeverity, ScanVerdict } from './types.js';

/** The scan of one skill folder. */
export interface ScanResult {
  /** The skill's name (its folder name). */
  skill: string;
  /** The folder as given (relative to the library root when scanning a library). */
  dir: string;
  files: number;
  bytes: number;
  findings: ScanFinding[];
  verdict: ScanVerdict;
  provenance?: ScanProvenance;
  decision?: PolicyDecision;
}

/** A finding in a report names its skill too. */
export interface ReportFinding extends ScanFinding {
  skill: string;
}

/** The `scan --json` shape (DESIGN §12; `schemas/scan-report.schema.json`). */
export interface ScanReport {
  version: 1;
  skills: number;
  files: number;
  bytes: number;
  findings: ReportFinding[];
  verdicts: Record<string, ScanVerdict>;
  /** Present for skills whose provenance was known. */
  decisions: Record<string, PolicyDecision>;
  summary: { safe: number; caution: number; dangerous: number; findings: number; suppressed: number };
}

const rank: Record<ScanSeverity, number> = { high: 0, medium: 1, low: 2 };

function compare(a: ReportFinding, b: ReportFinding): number {
  return (
    (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
    a.line - b.line ||
    a.column - b.column ||
    rank[a.severity] - rank[b.severity] ||
    (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0)
  );
}

/** Folds per-skill results into one report; findings sorted as a compiler prints them. */
export function buildScanReport(results: readonly ScanResult[]): ScanReport {
  const findings = results.flatMap((r) => r.findings.map((f) => ({ ...f, skill: r.skill }))).sort(compare);
  const verdicts: Record<string, ScanVerdict> = {};
  const decisions: Record<string, PolicyDecision> = {};
  const summary = { safe: 0, caution: 0, dangerous: 0, findings: findings.length, suppressed: findings.filter((f) => f.suppressed).length };
  for (const r of results) {
    const key = r.skill in verdicts ? r.dir : r.skill;
    verdicts[key] = r.verdict;
    if (r.decision) decisions[key] = r.decision;
    summary[r.verdict] += 1;
  }
  return {
    version: 1,
    skills: results.length,
    files: results.reduce((n, r) => n + r.files, 0),
    bytes: results.reduce((n, r) => n + r.bytes, 0),
    findings,
    verdicts,
    decisions,
    summary,
  };
}

/** Findings of one rule in one skill shown one by one; more than this are folded into one line. */
const shownPerGroup = 3;

function renderFinding(f: ReportFinding): string {
  const where = `${e(f.file)}:${f.line}:${f.column}`;
  const tail = f.suppressed ? ` [suppressed (${f.suppressed.by}): ${e(f.suppressed.reason)}]` : '';
  return `${where} ${f.severity} ${f.rule} ${e(f.message)}: ${e(f.match)}${tail}`;
}

/**
 * Compiler-style lines, `file:line:col severity rule message`, then one
 * verdict line per flagged skill. A rule that fires many times in one skill
 * (56 fonts, a reference page of attack examples) shows its first few and
 * one line for the rest: `--json` keeps every finding.
 */
export function renderScanText(report: ScanReport): string {
  const groups = new Map<string, ReportFinding[]>();
  for (const f of report.findings) {
    const key = `${f.skill}\u0000${f.rule}`;
    const group = groups.get(key);
    if (group) group.push(f);
    else groups.set(key, [f]);
  }
  const lines: string[] = [];
  for (const f of report.findings) {
    const group = groups.get(`${f.skill}\u0000${f.rule}`)!;
    const index = group.indexOf(f);
    if (index < shownPerGroup) lines.push(renderFinding(f));
    if (index === shownPerGroup) {
      const rest = group.slice(shownPerGroup);
      const files = [...new Set(rest.map((r) => r.file))];
      lines.push(
        `  … and ${rest.length} more ${f.rule} in ${e(f.skill)} (${files.slice(0, 3).map(e).join(', ')}${files.length > 3 ? `, ${files.length - 3} more files` : ''}; --json lists them all)`,
      );
    }
  }
  const flagged = Object.entries(report.verdicts).filter(([, v]) => v !== 'safe');
  for (const [skill, verdict] of flagged) {
    const decision = report.decisions[skill];
    lines.push(`${e(skill)}: ${verdict}${decision ? ` (${decision})` : ''}`);
  }
  const s = report.summary;
  lines.push(
    `${report.skills} skill${report.skills === 1 ? '' : 's'} scanned: ${s.safe} safe, ${s.caution} caution, ${s.dangerous} dangerous; ${s.findings} findings (${s.suppressed} suppressed)`,
  );
  return `${lines.join('\n')}\n`;
}

const severityOf: Record<ScanSeverity, Severity> = { high: 'error', medium: 'warning', low: 'info' };

/** Scan findings as the project's `Finding` (`code: scan/<rule>`), for `validate`. Suppressed ones become `info`. */
export function toFindings(findings: readonly ScanFinding[]): Finding[] {
  return findings.map((f) =>
    finding({
      code: `scan/${f.rule}`,
      severity: f.suppressed ? 'info' : severityOf[f.severity],
      file: f.file,
      line: f.line,
      column: f.column,
      message: `${f.message}: ${f.match}${f.suppressed ? ` (suppressed: ${f.suppressed.reason})` : ''}`,
      hint: f.hint,
    }),
  );
}
