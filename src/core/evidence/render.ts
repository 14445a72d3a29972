import { renderBudgetText } from './budget.js';
import type { EvidenceReport, EvidenceSkip, OutcomeFigures, SkillEvidence } from './types.js';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function percent(rate: number | null): string {
  return rate === null ? '–' : `${Math.round(rate * 100)}%`;
}

function renderRate(skill: SkillEvidence): string {
  const counts = `${skill.loaded}/${skill.loaded + skill.missed}`;
  if (skill.certainty === 'none') return 'no sessions';
  return skill.trigger_rate === null ? `${counts} (low certainty)` : `${percent(skill.trigger_rate)} (${counts})`;
}

function renderOutcome(figures: OutcomeFigures): string {
  if (figures.sessions === 0) return '–';
  return `${figures.sessions}: ${figures.median_calls ?? '–'} calls, ${percent(figures.error_rate)} errors`;
}

function renderTable(rows: readonly string[][]): string[] {
  const widths = (rows[0] ?? []).map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}

/** Skipped input grouped by reason: a person wants the reasons, the JSON has every file. */
function renderSkipped(skipped: readonly EvidenceSkip[]): string[] {
  if (skipped.length === 0) return [];
  const byReason = new Map<string, { count: number; files: Set<string>; skills: string[] }>();
  for (const skip of skipped) {
    const entry = byReason.get(skip.reason) ?? { count: 0, files: new Set<string>(), skills: [] };
    entry.count += skip.count;
    if (skip.file !== undefined) entry.files.add(skip.file);
    if (skip.skill !== undefined) entry.skills.push(skip.skill);
    byReason.set(skip.reason, entry);
  }
  const lines = ['', 'Not counted:'];
  for (const [reason, { count, files, skills }] of byReason) {
    const where =
      skills.length > 0
        ? `: ${skills.slice(0, 8).join(', ')}${skills.length > 8 ? ', …' : ''}`
        : files.size > 0
          ? ` (${plural(files.size, 'file')})`
          : '';
    lines.push(`  ${count} × ${reason}${where}`);
  }
  return lines;
}

/** Skills that sessions needed first (most misses), then most loaded, then by name. */
function orderForReading(skills: readonly SkillEvidence[]): SkillEvidence[] {
  return [...skills].sort((a, b) => b.missed - a.missed || b.loaded - a.loaded || (a.name < b.name ? -1 : 1));
}

/** How many names of the untouched skills the text names before `(+N)`; the JSON has them all. */
const untouchedShown = 12;

/** Skills no session loaded or missed, in one line: no evidence either way is not evidence against them. */
function renderUntouched(skills: readonly SkillEvidence[]): string {
  const names = skills.map((s) => s.name).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const shown = names.slice(0, untouchedShown).join(', ');
  const rest = names.length - untouchedShown;
  return `${plural(names.length, 'skill')} with no evidence either way: ${shown}${rest > 0 ? `, … (+${rest})` : ''}.`;
}

/** The `evidence` command's text output: one table a person reads in a minute. */
export function renderEvidenceText(report: EvidenceReport): string {
  const lines = [
    `Read ${plural(report.files, 'file')}: ${plural(report.sessions, 'session')} with ${plural(report.calls, 'tool call')}${report.since === undefined ? '' : ` since ${report.since}`}.`,
    `Rates stand on at least ${plural(report.min_sessions, 'session')} (loaded + missed); below that they are marked low certainty.`,
    '',
  ];
  if (report.skills.length === 0) lines.push('The library has no skills.');
  else {
    const header = ['skill', 'offered', 'loaded', 'missed', 'trigger rate', 'with it', 'without it (did it by hand)'];
    const untouched = report.skills.filter((s) => s.loaded === 0 && s.missed === 0);
    const touched = report.skills.filter((s) => s.loaded > 0 || s.missed > 0);
    const rows = orderForReading(touched).map((s) => [
      s.name,
      String(s.offered),
      String(s.loaded),
      String(s.missed),
      renderRate(s),
      renderOutcome(s.with),
      renderOutcome(s.without),
    ]);
    if (rows.length > 0) {
      lines.push(...renderTable([header, ...rows]));
      lines.push('', 'with it / without it: sessions: median tool calls, share of calls that failed (– below the minimum).');
    } else lines.push('No session loaded or missed any skill of the library.');
    if (untouched.length > 0) lines.push('', renderUntouched(untouched));
  }
  const patched = report.skills.filter((s) => s.after_patch !== undefined);
  if (patched.length > 0) lines.push('', 'After an agent patched it (loaded / missed, before → after):');
  for (const s of patched) {
    const p = s.after_patch as NonNullable<SkillEvidence['after_patch']>;
    lines.push(
      `  ${s.name} (${p.patched_at}): loaded ${p.loaded_before} → ${p.loaded_after}, missed ${p.missed_before} → ${p.missed_after}`,
    );
  }
  lines.push(...renderBudgetText(report.budget));
  lines.push(...renderSkipped(report.skipped));
  lines.push('', 'Observational: sessions that loaded a skill are not a controlled trial of it (docs/evidence.md).');
  return `${lines.join('\n')}\n`;
}
