import { excerpt } from '../findings.js';
import { THREAT_RULES, type ThreatRule } from './rules.js';
import { SPECIAL_RULES, specialRule } from './special-rules.js';
import { applyInlineSuppressions } from './suppress.js';
import type { ScanFinding, ScanSeverity, ScanVia } from './types.js';
import { findInvisible } from './unicode.js';
import { demotionOf, findCommentLines } from './context.js';
import { compileLineRegex, deriveTriggers } from './compile.js';
import { buildJoinedVariant, buildNormalizedVariant, findBase64Text, type LineVariant } from './variants.js';

export interface ScanTextOptions {
  /** The path reported in findings. */
  file: string;
  /** Defaults to every threat rule. */
  rules?: readonly ThreatRule[];
}

interface RuleHit {
  rule: ThreatRule;
  index: number;
  length: number;
}

/** Every rule id a suppression marker may name. */
export const KNOWN_RULE_IDS: ReadonlySet<string> = new Set([...THREAT_RULES, ...SPECIAL_RULES].map((r) => r.id));

const lower: Record<ScanSeverity, ScanSeverity> = { high: 'medium', medium: 'low', low: 'low' };
function matchRules(text: string, rules: readonly ThreatRule[]): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const rule of rules) {
    const m = rule.pattern.exec(text);
    if (m && (!rule.accept || rule.accept(m[0]))) hits.push({ rule, index: m.index, length: m[0].length });
  }
  return hits;
}

interface LineContext {
  file: string;
  line: number;
  text: string;
  comment: boolean;
}

function toFinding(ctx: LineContext, hit: RuleHit, via: ScanVia, column: number, matched: string): ScanFinding {
  const { rule } = hit;
  const demotion = demotionOf(rule, ctx.text, column - 1, column - 1 + hit.length, { via, comment: ctx.comment });
  const how = via === 'raw' ? '' : via === 'base64' ? ' (inside base64)' : via === 'normalized' ? ' (after removing look-alike or invisible characters)' : ' (after joining split strings)';
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

function scanVariant(ctx: LineContext, variant: LineVariant, via: ScanVia, seen: Set<string>, rules: readonly ThreatRule[]): ScanFinding[] {
  return matchRules(variant.text, rules)
    .filter((hit) => !seen.has(hit.rule.id))
    .map((hit) => {
      seen.add(hit.rule.id);
      const start = variant.origin[hit.index] ?? 0;
      const end = (variant.origin[hit.index + hit.length - 1] ?? start) + 1;
      return toFinding(ctx, hit, via, start + 1, ctx.text.slice(start, end));
    });
}

function scanVariants(ctx: LineContext, seen: Set<string>, rules: readonly ThreatRule[]): ScanFinding[] {
  const out: ScanFinding[] = [];
  const normalized = buildNormalizedVariant(ctx.text);
  if (normalized) out.push(...scanVariant(ctx, normalized, 'normalized', seen, rules));
  const joined = buildJoinedVariant(normalized?.text ?? ctx.text);
  if (joined) {
    const origin = normalized ? joined.origin.map((i) => normalized.origin[i] ?? i) : joined.origin;
    out.push(...scanVariant(ctx, { text: joined.text, origin }, 'joined', seen, rules));
  }
  for (const token of findBase64Text(ctx.text)) {
    for (const hit of matchRules(token.text, rules).filter((h) => !seen.has(h.rule.id))) {
      seen.add(hit.rule.id);
      out.push(toFinding(ctx, hit, 'base64', token.column, token.text.slice(hit.index, hit.index + hit.length)));
    }
  }
  return out;
}

interface CompiledRule {
  rule: ThreatRule;
  whole: RegExp;
  perLine: RegExp;
  triggers: string[] | undefined;
}

interface TriggerSet {
  pattern: RegExp;
  /** For each trigger, every trigger it contains (itself included). */
  contained: Map<string, string[]>;
}

interface CompiledTable {
  rules: CompiledRule[];
  triggers: TriggerSet;
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function buildTriggerSet(rules: readonly CompiledRule[]): TriggerSet {
  const all = [...new Set(rules.flatMap((r) => r.triggers ?? []))].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  const contained = new Map(all.map((t) => [t, all.filter((u) => t.includes(u))]));
  // An empty alternation would match everywhere; `(?!)` never matches.
  const source = all.length > 0 ? all.map(escapeRegex).join('|') : '(?!)';
  return { pattern: new RegExp(source, 'g'), contained };
}

const compiledCache = new WeakMap<readonly ThreatRule[], CompiledTable>();

/** Rules are compiled once per rule table and reused for every file. */
function compileTable(rules: readonly ThreatRule[]): CompiledTable {
  let table = compiledCache.get(rules);
  if (!table) {
    const compiled = compileEach(rules);
    table = { rules: compiled, triggers: buildTriggerSet(compiled) };
    compiledCache.set(rules, table);
  }
  return table;
}

function compileEach(rules: readonly ThreatRule[]): CompiledRule[] {
  return rules.map((rule) => ({
    rule,
    whole: compileLineRegex(rule.pattern),
    perLine: new RegExp(rule.pattern.source, `${rule.pattern.flags}g`),
    triggers: rule.triggers ?? deriveTriggers(rule.pattern),
  }));
}

function lineIndexOf(lineStarts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Lower-cases ASCII only, so offsets in the result are offsets in the text (full `toLowerCase` can change lengths). */
function lowerAscii(text: string): string {
  return text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

/** Past this many candidate lines a rule is cheaper to run once over the whole text. */
const WHOLE_TEXT_SHARE = 8;

/**
 * Finds every trigger of every rule in one regex pass over the lower-cased
 * text (one pass is ~8x cheaper than an indexOf per trigger). The pass
 * advances one character at a time so overlapping triggers are all seen; a
 * trigger that starts where a longer one matched is its substring, credited
 * through `contained`.
 */
function indexTriggers(scan: RawScan, set: TriggerSet): Map<string, number[]> {
  const lines = new Map<string, number[]>();
  const { pattern, contained } = set;
  let line = 0;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(scan.lower); m; m = pattern.exec(scan.lower)) {
    pattern.lastIndex = m.index + 1;
    while (line + 1 < scan.lineStarts.length && scan.lineStarts[line + 1]! <= m.index) line += 1;
    for (const trigger of contained.get(m[0]) ?? [m[0]]) {
      const list = lines.get(trigger);
      if (!list) lines.set(trigger, [line]);
      else if (list[list.length - 1] !== line) list.push(line);
    }
  }
  return lines;
}

/** Lines on which at least one trigger occurs, ascending; undefined means "run over the whole text". */
function candidateLines(scan: RawScan, triggers: readonly string[]): readonly number[] | undefined {
  const cap = Math.max(64, scan.lines.length / WHOLE_TEXT_SHARE);
  const lists = triggers.map((t) => scan.triggerLines.get(t)).filter((l): l is number[] => l !== undefined);
  if (lists.length <= 1) {
    const only = lists[0] ?? [];
    return only.length > cap ? undefined : only;
  }
  const found = new Set<number>();
  for (const list of lists) for (const line of list) found.add(line);
  if (found.size > cap) return undefined;
  return [...found].sort((a, b) => a - b);
}

interface RawScan {
  file: string;
  lines: readonly string[];
  lineStarts: readonly number[];
  seen: Map<number, Set<string>>;
  comments: ReadonlySet<number>;
  lower: string;
  triggerLines: Map<string, number[]>;
  out: ScanFinding[];
}

function record(scan: RawScan, rule: ThreatRule, index: number, column: number, matched: string): void {
  const ids = scan.seen.get(index) ?? new Set<string>();
  if (ids.has(rule.id) || (rule.accept && !rule.accept(matched))) return;
  ids.add(rule.id);
  scan.seen.set(index, ids);
  const ctx = { file: scan.file, line: index + 1, text: scan.lines[index]!, comment: scan.comments.has(index + 1) };
  scan.out.push(toFinding(ctx, { rule, index: column - 1, length: matched.length }, 'raw', column, matched));
}

function execAll(pattern: RegExp, text: string, onMatch: (m: RegExpExecArray) => void): void {
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    if (m[0].length === 0) pattern.lastIndex += 1;
    onMatch(m);
  }
}

/**
 * Runs every rule over a file. A rule with trigger literals runs only on the
 * lines holding one (found with indexOf, far cheaper than a regex pass); a
 * rule without runs once over the whole text. At most one finding per rule
 * per line.
 */
function scanRaw(scan: RawScan, text: string, table: CompiledTable): void {
  scan.triggerLines = indexTriggers(scan, table.triggers);
  for (const { rule, whole, perLine, triggers } of table.rules) {
    const candidates = triggers ? candidateLines(scan, triggers) : undefined;
    if (!candidates) {
      execAll(whole, text, (m) => {
        const index = lineIndexOf(scan.lineStarts, m.index);
        record(scan, rule, index, m.index - scan.lineStarts[index]! + 1, m[0]);
      });
      continue;
    }
    for (const index of candidates) {
      execAll(perLine, scan.lines[index]!, (m) => record(scan, rule, index, m.index + 1, m[0]));
    }
  }
}

function scanInvisible(ctx: LineContext): ScanFinding[] {
  return findInvisible(ctx.text, { fileStart: ctx.line === 1 }).map((hit) => {
    const rule = specialRule(hit.rule);
    return {
      rule: rule.id,
      category: rule.category,
      severity: rule.severity,
      file: ctx.file,
      line: ctx.line,
      column: hit.column,
      match: hit.codePoints.join(' '),
      message: `${rule.message}: ${hit.codePoints.join(', ')}${hit.count > 1 ? ` (${hit.count} in all)` : ''}`,
      hint: rule.hint,
      via: 'raw',
    };
  });
}

/** Splits text into lines the way editors number them (LF, CRLF or lone CR). */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\n|\r/);
}

/**
 * Scans one file's text line by line: every threat rule on the raw line, then
 * on its normalised, joined and base64-decoded variants (a rule already found
 * on the line is not reported twice), plus invisible Unicode. Pure and total:
 * any string in, findings out.
 */
export function scanSkillText(text: string, options: ScanTextOptions): ScanFinding[] {
  const rules = options.rules ?? THREAT_RULES;
  const unified = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  const lines = unified.split('\n');
  const lineStarts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    lineStarts.push(offset);
    offset += line.length + 1;
  }
  const comments = findCommentLines(options.file, lines);
  const scan: RawScan = { file: options.file, lines, lineStarts, seen: new Map(), comments, lower: lowerAscii(unified), triggerLines: new Map(), out: [] };
  scanRaw(scan, unified, compileTable(rules));
  const { out, seen } = scan;
  lines.forEach((lineText, i) => {
    const ctx = { file: options.file, line: i + 1, text: lineText, comment: comments.has(i + 1) };
    out.push(...scanVariants(ctx, seen.get(i) ?? new Set(), rules), ...scanInvisible(ctx));
  });
  out.sort((a, b) => a.line - b.line || a.column - b.column || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0));
  return applyInlineSuppressions(options.file, lines, out, KNOWN_RULE_IDS);
}
