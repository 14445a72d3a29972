import type { LogEntry } from './log-entry.js';

/** Who acted, with the agent's source when there is one: `agent/background`. */
function renderActor(entry: LogEntry): string {
  return entry.source === null ? entry.actor : `${entry.actor}/${entry.source}`;
}

/**
 * The ledger as text, one line per commit, newest first:
 * `3f9a1c2 2026-11-29T23:00:00Z  patch       agent/background  deploy-checklist  fix the rollback step`.
 * The run id follows in brackets when the commit belongs to a curator run.
 */
export function renderLogText(entries: readonly LogEntry[]): string {
  if (entries.length === 0) return 'No ledger entries.\n';
  const actionWidth = Math.max(...entries.map((e) => (e.action ?? '-').length));
  const actorWidth = Math.max(...entries.map((e) => renderActor(e).length));
  const lines = entries.map((entry) => {
    const skills = entry.skills.length === 0 ? '-' : entry.skills.join(',');
    const run = entry.run === null ? '' : `  [run ${entry.run}]`;
    return [
      entry.commit.slice(0, 7),
      entry.time,
      ` ${(entry.action ?? '-').padEnd(actionWidth)}`,
      renderActor(entry).padEnd(actorWidth),
      skills,
      `${entry.subject}${run}`,
    ].join(' ');
  });
  return `${lines.join('\n')}\n`;
}
