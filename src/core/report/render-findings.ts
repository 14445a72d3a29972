import type { Finding } from '../findings.js';
import { escapeControl as e } from './escape-text.js';

export interface FindingsSummary {
  skills: number;
  errors: number;
  warnings: number;
}

export interface RenderTextOptions {
  /**
   * The group a finding belongs to (its skill, for the scan's findings), or
   * undefined: of one code in one group only the first few are shown, then
   * one line for the rest (56 font files are one line, not 56).
   */
  groupOf?: (finding: Finding) => string | undefined;
}

/** Findings of one code in one group shown before the rest is summed up. */
const shownPerGroup = 3;

/** Compiler-style lines: `file:line:col severity code message`, then the hint indented. */
export function renderFindingsText(findings: readonly Finding[], summary: FindingsSummary, options: RenderTextOptions = {}): string {
  const groups = new Map<string, Finding[]>();
  const keyOf = (f: Finding) => {
    const group = options.groupOf?.(f);
    return group === undefined ? undefined : `${group}\u0000${f.code}`;
  };
  for (const f of findings) {
    const key = keyOf(f);
    if (key !== undefined) groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const lines: string[] = [];
  for (const f of findings) {
    const key = keyOf(f);
    const group = key === undefined ? undefined : groups.get(key);
    const index = group ? group.indexOf(f) : 0;
    if (group && index === shownPerGroup) lines.push(renderRest(f, group.slice(shownPerGroup), options.groupOf?.(f) ?? ''));
    if (index >= shownPerGroup) continue;
    // Every value may come from a hostile file: one finding is one line, whatever its name or message holds.
    const where = f.line > 0 ? `${e(f.file)}:${f.line}:${f.column || 1}` : e(f.file);
    lines.push(`${where} ${f.severity} ${e(f.code)} ${e(f.message)}`);
    if (f.hint) lines.push(`    hint: ${e(f.hint)}`);
  }
  lines.push(renderSummaryLine(summary));
  return `${lines.join('\n')}\n`;
}

function renderRest(first: Finding, rest: readonly Finding[], group: string): string {
  const files = [...new Set(rest.map((r) => r.file))];
  const shown = files.slice(0, 3).map(e).join(', ');
  const more = files.length > 3 ? `, ${files.length - 3} more files` : '';
  return `  … and ${rest.length} more ${e(first.code)} in ${e(group)} (${shown}${more}; --json lists them all)`;
}

export function renderSummaryLine(summary: FindingsSummary): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(summary.skills, 'skill')} checked: ${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}`;
}

/**
 * GitHub workflow commands (`::error file=…,line=…::message`), one per finding,
 * so annotations land on the exact line of a pull request's diff.
 */
export function renderFindingsGithub(findings: readonly Finding[]): string {
  return findings
    .map((f) => {
      const command = f.severity === 'error' ? 'error' : f.severity === 'warning' ? 'warning' : 'notice';
      const props = [`file=${escapeProperty(f.file)}`];
      if (f.line > 0) props.push(`line=${f.line}`);
      if (f.column > 0) props.push(`col=${f.column}`);
      props.push(`title=${escapeProperty(f.code)}`);
      return `::${command} ${props.join(',')}::${escapeData(`${f.message}\n${f.hint}`)}\n`;
    })
    .join('');
}

// The escaping GitHub's runner applies when it reads workflow commands.
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
