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

/**
 * The match of each rule on one line of text (used for the rewritten variants
 * of a line): the first accepted one that `counts` (context.ts: not quoted,
 * not negated…), else the first accepted one, so a negated mention does not
 * hide a real one after it.
 */
export function matchRules(
  text: string,
  rules: readonly ThreatRule[],
  counts: (hit: RuleHit) => boolean = () => true,
  regexOf: (rule: ThreatRule) => RegExp = (rule) => rule.pattern,
): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const rule of rules) {
    const regex = regexOf(rule);
    regex.lastIndex = 0;
    const m = regex.exec(text);
    if (!m) continue;
    const hit = { rule, index: m.index, length: m[0].length };
    const best = (!rule.accept || rule.accept(m[0])) && counts(hit) ? hit : bestMatch(text, rule, counts, regex);
    if (best) hits.push(best);
  }
  return hits;
}

/** The first accepted match that counts, else the first accepted one; rare, so a non-global regex is made global here. */
function bestMatch(text: string, rule: ThreatRule, counts: (hit: RuleHit) => boolean, regex: RegExp): RuleHit | undefined {
  const all = regex.global ? regex : new RegExp(regex.source, `${regex.flags}g`);
  all.lastIndex = 0;
  let first: RuleHit | undefined;
  for (let m = all.exec(text); m; m = all.exec(text)) {
    if (m[0].length === 0) all.lastIndex += 1;
    if (rule.accept && !rule.accept(m[0])) continue;
    const hit = { rule, index: m.index, length: m[0].length };
    if (counts(hit)) return hit;
    first ??= hit;
  }
  return first;
}

const rank: Record<ScanSeverity, number> = { high: 2, medium: 1, low: 0 };

/**
 * Adds a finding to `out` unless its rule already has one as severe on its
 * line (`onLine`: rule id to index in `out`); a more severe one replaces it.
 */
export function addFinding(out: ScanFinding[], onLine: Map<string, number>, finding: ScanFinding): void {
  const at = onLine.get(finding.rule);
  if (at === undefined) {
    onLine.set(finding.rule, out.push(finding) - 1);
    return;
  }
  if (rank[finding.severity] > rank[out[at]!.severity]) out[at] = finding;
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
