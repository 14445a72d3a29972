import type { LogEntry } from './log-entry.js';

/** Who acted, with the agent's source when there is one: `agent/background`. */
function renderActor(entry: LogEntry): string {
  return entry.source === null ? entry.actor : `${entry.actor}/${entry.source}`;
}

const header = ['commit', 'time', 'action', 'actor', 'skills', 'subject'];

/** Names shown in a row; the rest are counted. A commit touching 700 skills once made 7,177-character rows. */
const shownSkills = 3;

/** `a, b, c, … (+4)`: a row stays readable however many skills one commit touches (`--json` lists them all). */
export function renderSkillList(skills: readonly string[]): string {
  if (skills.length === 0) return '-';
  const shown = skills.slice(0, shownSkills).join(', ');
  return skills.length > shownSkills ? `${shown}, … (+${skills.length - shownSkills})` : shown;
}

/**
 * The ledger as text under a header row, one line per commit, newest first:
 * `3f9a1c2  2026-11-29T23:00:00Z  patch   agent/background  deploy-checklist  fix the rollback step`.
 * The run id follows in brackets when the commit belongs to a curator run.
 */
export function renderLogText(entries: readonly LogEntry[]): string {
  if (entries.length === 0) return 'No ledger entries.\n';
  const rows = entries.map((entry) => [
    entry.commit.slice(0, 7),
    entry.time,
    entry.action ?? '-',
    renderActor(entry),
    renderSkillList(entry.skills),
    `${entry.subject}${entry.run === null ? '' : `  [run ${entry.run}]`}`,
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}
