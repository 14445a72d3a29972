import { excerpt } from '../findings.js';
import { specialFinding } from './special-rules.js';
import type { ScanFinding } from './types.js';

/** A `skillgarden-ignore` marker: covers its own line and the next one. */
export interface SuppressionMarker {
  line: number;
  column: number;
  rules: string[];
  reason: string;
}

/** An allow-list entry from `.skillgarden/config.yaml` (`scan.allow`). `path` is a file path or folder prefix, relative to the skill or library. */
export interface ScanAllowEntry {
  rule: string;
  path?: string;
  reason: string;
}

// `<!-- skillgarden-ignore: rule-a, rule-b — reason -->` or `# skillgarden-ignore: rule-a -- reason`.
const markerPattern = /skillgarden-ignore\s{0,3}:\s{0,3}([\w-]{1,80}(?:\s{0,3},\s{0,3}[\w-]{1,80}){0,20})([^\n]{0,500})/;
const reasonPattern = /^\s{0,10}(?:—|–|--|-|:)\s{0,10}(.{0,400}?)\s{0,10}(?:-->|\*\/)?\s{0,10}$/;

export function parseSuppressionMarkers(lines: readonly string[]): SuppressionMarker[] {
  const out: SuppressionMarker[] = [];
  lines.forEach((text, i) => {
    if (!text.includes('skillgarden-ignore')) return;
    const m = markerPattern.exec(text);
    if (!m) return;
    const rest = reasonPattern.exec(m[2] ?? '');
    const reason = (rest?.[1] ?? '').replace(/\s*-->\s*$/, '').trim();
    out.push({ line: i + 1, column: m.index + 1, rules: m[1]!.split(',').map((r) => r.trim()), reason });
  });
  return out;
}

function markerFinding(
  file: string,
  marker: SuppressionMarker,
  id: 'suppress-missing-reason' | 'suppress-unknown-rule',
  detail: string,
): ScanFinding {
  return specialFinding(id, { file, line: marker.line, column: marker.column, match: excerpt(detail, 80), detail });
}

/**
 * Marks findings covered by a marker on their line or the line before as
 * suppressed (kept, never dropped). A marker without a reason suppresses
 * nothing and is itself reported; so is a marker naming an unknown rule.
 */
export function applyInlineSuppressions(
  file: string,
  lines: readonly string[],
  findings: ScanFinding[],
  knownRules: ReadonlySet<string>,
): ScanFinding[] {
  const markers = parseSuppressionMarkers(lines);
  if (markers.length === 0) return findings;
  const extra: ScanFinding[] = [];
  const active = markers.filter((marker) => {
    for (const id of marker.rules) if (!knownRules.has(id)) extra.push(markerFinding(file, marker, 'suppress-unknown-rule', id));
    if (marker.reason === '') extra.push(markerFinding(file, marker, 'suppress-missing-reason', marker.rules.join(', ')));
    return marker.reason !== '';
  });
  const suppressed = findings.map((f) => {
    const marker = active.find((m) => (m.line === f.line || m.line === f.line - 1) && m.rules.includes(f.rule));
    return marker && !f.suppressed ? { ...f, suppressed: { reason: marker.reason, by: 'inline' as const } } : f;
  });
  return [...suppressed, ...extra];
}

function pathCovers(entryPath: string | undefined, file: string): boolean {
  if (entryPath === undefined || entryPath === '' || entryPath === '.') return true;
  const prefix = entryPath.replace(/\/+$/, '');
  return file === prefix || file.startsWith(`${prefix}/`) || file.endsWith(`/${prefix}`) || file.includes(`/${prefix}/`);
}

/** Marks findings an allow-list entry covers as suppressed by config. */
export function applyAllowList(findings: readonly ScanFinding[], allow: readonly ScanAllowEntry[]): ScanFinding[] {
  if (allow.length === 0) return [...findings];
  return findings.map((f) => {
    if (f.suppressed) return f;
    const entry = allow.find((a) => a.rule === f.rule && a.reason.trim() !== '' && pathCovers(a.path, f.file));
    return entry ? { ...f, suppressed: { reason: entry.reason, by: 'config' as const } } : f;
  });
}
