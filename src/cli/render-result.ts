import type { Finding } from '../core/findings.js';
import { escapeControl } from '../core/report/escape-text.js';
import type { ManageResult } from '../services/manage/index.js';

/** One line per commit, as a person reads it; warnings the write carried follow. */
export function renderManageResult(result: ManageResult): string {
  const files = `${result.files.length} file${result.files.length === 1 ? '' : 's'}`;
  const lines = [
    result.staged
      ? `${result.action}: ${result.skills.join(', ')} — staged for approval on ${result.staged.branch} (${result.commit.slice(0, 12)}, ${files}): the security scan judged it ${result.staged.verdict}; a person merges the branch to accept it`
      : `${result.action}: ${result.skills.join(', ')} — committed ${result.commit.slice(0, 12)} (${files})`,
  ];
  if (typeof result.details.matcher === 'string')
    lines.push(`  matched with ${result.details.matcher} at line(s) ${String(result.details.lines)}`);
  if (typeof result.details.archivedTo === 'string')
    lines.push(`  archived to ${result.details.archivedTo}; \`skillgarden restore ${result.skills[0]}\` brings it back`);
  const warnings = (result.details.warnings as Finding[] | undefined) ?? [];
  for (const w of warnings) lines.push(`  ${w.severity} ${escapeControl(w.code)} ${escapeControl(w.message)}`);
  return `${lines.join('\n')}\n`;
}
