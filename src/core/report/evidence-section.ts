import type { EvidenceReport, ListingBudget, ListingClient, OutcomeFigures, SkillEvidence } from '../evidence/types.js';
import { codeSpan, escapeMarkdown } from './markdown-inert.js';

/** Rows the table and the chart show at most: the skills a person should look at first. */
const maxRows = 10;
/** Names a chart's axis shows at most, in characters: longer names are cut (the table beside it has them whole). */
const maxLabel = 24;

const clientNames: Record<ListingClient, string> = { 'claude-code': 'Claude Code', codex: 'Codex', 'gemini-cli': 'Gemini CLI' };

/**
 * The evidence section of REPORT.md, the Action's job summary and a pull request's body: the skills with the most
 * misses and the lowest trigger rates (every figure with the count it stands on, thin ones marked), a Mermaid chart of
 * loaded against missed sessions, the listing budget per client, and the input that was not counted.
 */
export function renderEvidenceSection(report: EvidenceReport): string {
  const lines = ['## Evidence from transcripts', '', summaryLine(report), ''];
  const rows = rankSkills(report.skills);
  if (rows.length === 0) {
    lines.push('No session loaded or missed any skill of the library.', '');
  } else {
    lines.push(...renderTable(rows, report.min_sessions), '', ...renderChart(rows), '');
    const untouched = report.skills.length - report.skills.filter(touched).length;
    if (untouched > 0) lines.push(`${untouched} skill(s) no session loaded or missed.`, '');
  }
  lines.push(...renderBudgets(report.budget));
  if (report.skipped.length > 0) {
    lines.push('### Not counted', '');
    for (const s of report.skipped)
      lines.push(
        `- ${s.count} × ${s.file ? `${codeSpan(s.file)}: ` : ''}${s.skill ? `${codeSpan(s.skill)}: ` : ''}${escapeMarkdown(s.reason)}`,
      );
    lines.push('');
  }
  return lines.join('\n');
}

function summaryLine(r: EvidenceReport): string {
  const since = r.since ? ` since ${r.since.slice(0, 10)}` : '';
  return `${r.sessions} session(s), ${r.calls} tool call(s) in ${r.files} file(s)${since}, as of ${r.now.slice(0, 10)}. A rate stands on at least ${r.min_sessions} session(s); below that it is marked *low* and not given.`;
}

const touched = (s: SkillEvidence) => s.loaded + s.missed > 0;

/** Most misses first; then the lowest trigger rate (a rate not given sorts after the given ones); then the name. */
function rankSkills(skills: readonly SkillEvidence[]): SkillEvidence[] {
  return skills
    .filter(touched)
    .sort(
      (a, b) => b.missed - a.missed || (a.trigger_rate ?? 2) - (b.trigger_rate ?? 2) || b.loaded - a.loaded || a.name.localeCompare(b.name),
    )
    .slice(0, maxRows);
}

function renderTable(rows: readonly SkillEvidence[], minSessions: number): string[] {
  const out = ['| skill | offered | loaded | missed | trigger rate | with it | without it |', '|---|---:|---:|---:|---:|---|---|'];
  for (const s of rows) {
    const rate =
      s.trigger_rate === null
        ? `*low* (${s.loaded} of ${s.loaded + s.missed})`
        : `${percent(s.trigger_rate)} (${s.loaded} of ${s.loaded + s.missed})`;
    out.push(
      `| ${cell(codeSpan(s.name))} | ${s.offered} | ${s.loaded} | ${s.missed} | ${rate} | ${outcome(s.with, minSessions)} | ${outcome(s.without, minSessions)} |`,
    );
  }
  return out;
}

/** How a group of sessions went, each figure with its count; nothing but the count below the minimum. */
function outcome(f: OutcomeFigures, minSessions: number): string {
  if (f.sessions === 0) return '—';
  if (f.sessions < minSessions) return `*low* (${f.sessions} session(s))`;
  const parts = [`${f.sessions} sessions`];
  if (f.median_calls !== null) parts.push(`median ${f.median_calls} calls`);
  if (f.error_rate !== null) parts.push(`${percent(f.error_rate)} errors`);
  parts.push(`tests passing at the end ${f.ended_tests_passing} of ${f.sessions}`);
  return parts.join(', ');
}

/**
 * `xychart-beta` draws a chart's bar series over each other: the total (loaded + missed) first and loaded over it
 * reads as one stacked bar per skill, loaded below and missed above. GitHub renders Mermaid in Markdown, job summaries
 * and pull request bodies.
 */
function renderChart(rows: readonly SkillEvidence[]): string[] {
  const labels = rows.map((s) => JSON.stringify(chartLabel(s.name))).join(', ');
  const top = Math.max(1, ...rows.map((s) => s.loaded + s.missed));
  return [
    '```mermaid',
    'xychart-beta',
    '  title "Sessions per skill: loaded (lower bar) and missed (upper bar)"',
    `  x-axis [${labels}]`,
    `  y-axis "sessions" 0 --> ${top}`,
    `  bar [${rows.map((s) => s.loaded + s.missed).join(', ')}]`,
    `  bar [${rows.map((s) => s.loaded).join(', ')}]`,
    '```',
  ];
}

/** A name as an axis label: no quote, bracket, backtick or line break can end the label or the block. */
function chartLabel(name: string): string {
  const flat = name.replace(/[^\p{L}\p{N} ._:/-]/gu, '_');
  return flat.length > maxLabel ? `${flat.slice(0, maxLabel - 1)}…` : flat;
}

function renderBudgets(budget: EvidenceReport['budget']): string[] {
  const budgets = Object.values(budget);
  if (budgets.length === 0) return [];
  const out = [
    '### Listing budget',
    '',
    '| client | limit (characters) | the listing needs | descriptions that fall out |',
    '|---|---:|---:|---|',
  ];
  for (const b of budgets) out.push(`| ${clientNames[b.client]} | ${b.limit_chars} | ${b.used_chars} (${percentOf(b)}) | ${dropped(b)} |`);
  out.push('');
  for (const b of budgets.filter((x) => x.advice.length > 0)) {
    out.push(`What would bring the library within ${clientNames[b.client]}'s budget:`, '');
    for (const a of b.advice) out.push(`- ${escapeMarkdown(a)}`);
    out.push('');
  }
  out.push('Limits, what each client counts and their sources: docs/listing-budget.md.', '');
  return out;
}

function dropped(b: ListingBudget): string {
  if (b.dropped.length === 0) return 'none';
  const shown = b.dropped.slice(0, 5).map((n) => cell(codeSpan(n)));
  return `${b.dropped.length}: ${shown.join(', ')}${b.dropped.length > shown.length ? `, +${b.dropped.length - shown.length} more` : ''}`;
}

const percent = (rate: number) => `${Math.round(rate * 100)}%`;
const percentOf = (b: ListingBudget) => `${Math.round((b.used_chars / Math.max(1, b.limit_chars)) * 100)}% of it`;
/** A pipe inside a table cell, even inside a code span, ends the cell unless escaped. */
const cell = (text: string) => text.replace(/\|/g, '\\|');
