import { compileLineRegex, deriveTriggers } from './compile.js';
import { toFinding } from './line-finding.js';
import type { ThreatRule } from './rules.js';
import type { ScanFinding } from './types.js';

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

export interface CompiledTable {
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
export function compileTable(rules: readonly ThreatRule[]): CompiledTable {
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
export function lowerAscii(text: string): string {
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

export interface RawScan {
  file: string;
  lines: readonly string[];
  lineStarts: readonly number[];
  seen: Map<number, Set<string>>;
  comments: ReadonlySet<number>;
  lower: string;
  triggerLines: Map<string, number[]>;
  /** Longest run of base64 characters in the text (rules with `base64Run` are skipped below it). */
  longestBase64Run: number;
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
 * lines holding one (all triggers are found in one pass, far cheaper than a
 * pass per rule); a rule without triggers, or whose triggers are on most
 * lines, runs once over the whole text. At most one finding per rule per line.
 */
export function scanRaw(scan: RawScan, text: string, table: CompiledTable): void {
  scan.triggerLines = indexTriggers(scan, table.triggers);
  for (const { rule, whole, perLine, triggers } of table.rules) {
    if (rule.base64Run !== undefined && scan.longestBase64Run < rule.base64Run) continue;
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

/** The rules that can match `text` at all: those with no triggers and those with a trigger in it. */
export function selectRules(text: string, table: CompiledTable): ThreatRule[] {
  const present = new Set<string>();
  const { pattern, contained } = table.triggers;
  const lower = lowerAscii(text);
  pattern.lastIndex = 0;
  for (let m = pattern.exec(lower); m; m = pattern.exec(lower)) {
    pattern.lastIndex = m.index + 1;
    for (const trigger of contained.get(m[0]) ?? [m[0]]) present.add(trigger);
  }
  return table.rules.filter((r) => !r.triggers || r.triggers.some((t) => present.has(t))).map((r) => r.rule);
}
