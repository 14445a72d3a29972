import { excerpt } from '../findings.js';
import { demotionOf } from './context.js';
import type { ThreatRule } from './rules.js';
import type { ScanFinding, ScanSeverity, ScanVia } from './types.js';

export interface RuleHit {
  rule: ThreatRule;
  index: number;
  length: number;
}

export interface LineContext {
  file: string;
  line: number;
  text: string;
  /** The line is a code comment (a command there is documentation). */
  comment: boolean;
}

const lower: Record<ScanSeverity, ScanSeverity> = { high: 'medium', medium: 'low', low: 'low' };

/** First match of each rule on one line of text (used for the rewritten variants of a line). */
export function matchRules(text: string, rules: readonly ThreatRule[]): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const rule of rules) {
    const m = rule.pattern.exec(text);
    if (m && (!rule.accept || rule.accept(m[0]))) hits.push({ rule, index: m.index, length: m[0].length });
  }
  return hits;
}

/** A rule match as a finding, one severity lower when the context says it is an example. */
export function toFinding(ctx: LineContext, hit: RuleHit, via: ScanVia, column: number, matched: string): ScanFinding {
  const { rule } = hit;
  const demotion = demotionOf(rule, ctx.text, column - 1, column - 1 + hit.length, { via, comment: ctx.comment });
  const how =
    via === 'raw'
      ? ''
      : via === 'base64'
        ? ' (inside base64)'
        : via === 'normalized'
          ? ' (after removing look-alike or invisible characters)'
          : ' (after joining split strings)';
  return {
    rule: rule.id,
    category: rule.category,
    severity: demotion ? lower[rule.severity] : rule.severity,
    file: ctx.file,
    line: ctx.line,
    column,
    match: excerpt(matched, 80),
    message: `${rule.message}${how}${demotion ? ` (${demotion})` : ''}`,
    hint: rule.hint,
    via,
  };
}
