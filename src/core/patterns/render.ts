import type { DetectReport, DetectedPattern, Pattern } from './types.js';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * What became of a pattern, in words a reviewer reads: its draft, the skill that covers it, the draft it folded
 * into, or why it has none. An empty cell beside a repeated procedure would leave the reviewer guessing.
 */
function describeOutcome(pattern: Pattern | DetectedPattern, name: (text: string) => string): string {
  const detected = pattern as DetectedPattern;
  if (detected.draft !== undefined) return `draft: ${name(detected.draft.name)}`;
  // The reason says how (loaded by the sessions, or the skill runs these commands); a fingerprint match has none.
  if (detected.coveredBy !== undefined) return `covered by ${name(detected.coveredBy)}${detected.reason ? `: ${detected.reason}` : ''}`;
  if (detected.collapsedInto !== undefined) return `folded into the draft ${name(detected.collapsedInto)}`;
  return detected.reason === undefined ? '' : `no draft: ${detected.reason}`;
}

function renderPatternLine(pattern: DetectedPattern, index: number): string {
  const outcome = describeOutcome(pattern, (text) => text);
  return `${String(index + 1).padStart(3)}. ${pattern.tools.join(' → ')}  [${plural(pattern.sessions, 'session')}, confidence ${pattern.confidence.toFixed(2)}, ${pattern.fingerprint}]${outcome === '' ? '' : `  ${outcome}`}`;
}

export interface RenderDetectOptions {
  /** Skipped-input lines shown before a summary line (20); the JSON report has them all. */
  maxSkipped?: number;
}

function renderSkip(skip: DetectReport['skipped'][number]): string {
  const lines = skip.lines ?? [];
  const at = lines.length === 0 ? '' : ` (line${lines.length > 1 ? 's' : ''} ${lines.join(', ')}${skip.count > lines.length ? ', …' : ''})`;
  return `  ${skip.file}: ${skip.count} × ${skip.reason}${at}`;
}

function renderSkipped(skipped: DetectReport['skipped'], max: number): string[] {
  if (skipped.length === 0) return [];
  const lines = ['', 'Skipped input:', ...skipped.slice(0, max).map(renderSkip)];
  if (skipped.length > max) {
    const rest = skipped.slice(max);
    const files = new Set(rest.map((skip) => skip.file)).size;
    const entries = `${rest.length} more ${rest.length === 1 ? 'entry' : 'entries'}`;
    lines.push(`  … and ${entries} in ${plural(files, 'file')} (--json lists them all)`);
  }
  return lines;
}

/** The `detect` command's text output. */
export function renderDetectText(report: DetectReport, options: RenderDetectOptions = {}): string {
  const lines = [`Read ${plural(report.files, 'file')}: ${plural(report.sessions, 'session')} with ${plural(report.calls, 'tool call')}.`];
  lines.push(...renderSkipped(report.skipped, options.maxSkipped ?? 20));
  lines.push('');
  if (report.patterns.length === 0) {
    lines.push('No repeated tool sequences found.');
  } else {
    lines.push(`${plural(report.patterns.length, 'pattern')}:`);
    report.patterns.forEach((pattern, i) => lines.push(renderPatternLine(pattern, i)));
  }
  if (report.uses.length > 0) {
    const bySkill = new Map<string, number>();
    for (const use of report.uses) bySkill.set(use.skill, (bySkill.get(use.skill) ?? 0) + 1);
    lines.push('', 'Skill loads:');
    for (const [skill, count] of [...bySkill].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) lines.push(`  ${skill}: ${count}`);
  }
  return `${lines.join('\n')}\n`;
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The patterns section of REPORT.md. */
export function renderPatternsMarkdown(patterns: readonly (Pattern | DetectedPattern)[]): string {
  const lines = ['## Patterns', ''];
  if (patterns.length === 0) return `${[...lines, 'No repeated tool sequences found.'].join('\n')}\n`;
  lines.push('| # | tools | sessions | confidence | fingerprint | proposal |', '|---|---|---|---|---|---|');
  patterns.forEach((pattern, i) => {
    const proposal = escapeCell(describeOutcome(pattern, (text) => `\`${text}\``));
    const tools = pattern.tools.map((t) => `\`${escapeCell(t)}\``).join(' → ');
    lines.push(
      `| ${i + 1} | ${tools} | ${pattern.sessions} | ${pattern.confidence.toFixed(2)} | \`${pattern.fingerprint}\` | ${proposal} |`,
    );
  });
  return `${lines.join('\n')}\n`;
}
