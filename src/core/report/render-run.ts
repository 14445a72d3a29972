import type { RunReport, TransitionReport } from './run-report.js';

const arrow = (t: TransitionReport) => `${t.from} → ${t.to}`;

/** REPORT.md: what a person reviewing the run needs, in the order they need it. */
export function renderRunMarkdown(report: RunReport, extraSections: readonly string[] = []): string {
  const lines: string[] = [];
  const title = report.dry_run ? 'Curator run (dry run: nothing was written)' : 'Curator run';
  lines.push(`# ${title} ${report.run_id}`, '');
  lines.push(`- Time: ${report.time}`, `- Status: **${report.status}**${statusNote(report)}`);
  lines.push(
    `- Checked ${report.counters.checked} curated skill(s): ${report.counters.marked_stale} marked stale, ${report.counters.archived} archived, ${report.counters.reactivated} reactivated, ${report.counters.seeded} seeded.`,
  );
  lines.push('', '| | active | stale | archived |', '|---|---:|---:|---:|');
  lines.push(`| before | ${report.counts.before.active} | ${report.counts.before.stale} | ${report.counts.before.archived} |`);
  lines.push(`| after | ${report.counts.after.active} | ${report.counts.after.stale} | ${report.counts.after.archived} |`, '');
  if (report.transitions.length > 0) {
    const sessions = sessionsOf(report);
    lines.push('## Transitions', '', '| skill | change | anchor | why | commit |', '|---|---|---|---|---|');
    for (const t of report.transitions) {
      lines.push(
        `| ${code(t.skill)} | ${arrow(t)} | ${t.anchor.slice(0, 10)} (${t.anchor_source}) | ${escapeCell(t.reason + sessions(t.skill))} | ${t.commit ? `\`${t.commit.slice(0, 12)}\`` : '—'} |`,
      );
    }
    lines.push('');
  } else {
    lines.push('No lifecycle transitions.', '');
  }
  // Needed skills are kept against their idle days: the reviewer sees why, and what became of their wording.
  const protectedSkips = report.skipped.filter((s) => s.reason === 'pinned' || s.reason === 'referenced' || s.reason === 'needed');
  if (protectedSkips.length > 0) {
    lines.push('## Left alone on purpose', '');
    for (const s of protectedSkips) lines.push(`- ${code(s.skill)}: ${s.detail}`);
    lines.push('');
  }
  if (report.seeded.length > 0) lines.push(`Seeded (clock starts now): ${report.seeded.map(code).join(', ')}`, '');
  if (report.forgotten.length > 0)
    lines.push(`Gone from the tree since the last run (records dropped): ${report.forgotten.map(code).join(', ')}`, '');
  lines.push(...extraSections);
  if (report.errors.length + report.warnings.length > 0) {
    lines.push('## Problems', '');
    for (const e of report.errors) lines.push(`- error ${e.code}${e.file ? ` (${e.file})` : ''}: ${e.message}`);
    for (const w of report.warnings) lines.push(`- warning ${w.code}${w.file ? ` (${w.file})` : ''}: ${w.message}`);
    lines.push('');
  }
  lines.push(
    '## Undo',
    '',
    report.undo
      ? `\`${report.undo}\` reverts every commit of this run as one commit (refused, changing nothing, if a file changed since).`
      : 'Nothing to undo: the run changed nothing.',
    '',
  );
  return lines.join('\n');
}

/**
 * What the transcripts say of a skill, beside the idle days that moved it: a reviewer sees whether sessions that
 * could have used it did (loaded), did its work by hand (missed), or never came near it. Nothing without transcripts.
 */
function sessionsOf(report: RunReport): (skill: string) => string {
  const bySkill = new Map((report.evidence?.skills ?? []).map((s) => [s.name, s]));
  return (skill) => {
    const s = bySkill.get(skill);
    return s ? `; in the transcripts: offered in ${s.offered} session(s), loaded in ${s.loaded}, missed in ${s.missed}` : '';
  };
}

function statusNote(report: RunReport): string {
  if (report.status === 'first-run') return ' — the first scheduled run only records its time; the next one acts.';
  if (report.status === 'skipped')
    return ` — not due (${report.gates.blocked_by}); next due ${report.gates.next_due_at ?? 'when enabled'}.`;
  return '';
}

/** A Markdown code span that survives backticks and pipes in the name (names come from folder names, which can hold anything). */
function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const padded = text.startsWith('`') || text.endsWith('`') ? ` ${text} ` : text;
  return `${fence}${escapeCell(padded)}${fence}`;
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
