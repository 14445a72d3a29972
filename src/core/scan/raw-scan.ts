import { compileLineRegex, ruleSecondTriggers, ruleTriggers } from './compile.js';
import { addFinding, toFinding } from './line-finding.js';
import type { ThreatRule } from './rules.js';
import type { ScanFinding } from './types.js';
import { generatedMatcher } from './rule-triggers.generated.js';
import type { TextLines } from './text-lines.js';
import {
  buildTriggerMatcher,
  indexTriggerLines,
  triggerText,
  type TriggerHits,
  type TriggerInput,
  type TriggerMatcher,
} from './trigger-index.js';

interface CompiledRule {
  rule: ThreatRule;
  /** The rule kept inside a line (compile.ts), global: run over a whole text, one line, or a line's variant alike. */
  whole: RegExp;
  /** Ids of the rule's trigger literals in the table's matcher; undefined when the rule has none. */
  triggers: number[] | undefined;
  /** Ids of its second triggers (compile.ts): a line must hold one of these too. */
  second: number[] | undefined;
}

export interface CompiledTable {
  rules: CompiledRule[];
  triggers: TriggerMatcher;
  /** For each trigger literal id, the indexes of the rules it belongs to. */
  rulesOf: number[][];
  /** Indexes of the rules without triggers: they run on every text. */
  untriggered: number[];
  /** Each rule's compiled form, for the rules `selectRules` returns. */
  byRule: Map<ThreatRule, CompiledRule>;
}

const compiledCache = new WeakMap<readonly ThreatRule[], CompiledTable>();

/** What a table's matcher is built from: every rule's triggers, then every rule's second triggers. */
export function matcherInputs(
  triggers: ReadonlyArray<readonly TriggerInput[] | undefined>,
  seconds: ReadonlyArray<readonly TriggerInput[] | undefined>,
): TriggerInput[] {
  return [...triggers, ...seconds].flatMap((l) => l ?? []);
}

/** Rules are compiled once per rule table and reused for every file. */
export function compileTable(rules: readonly ThreatRule[]): CompiledTable {
  let table = compiledCache.get(rules);
  if (!table) {
    const triggers: Array<readonly TriggerInput[] | undefined> = rules.map(ruleTriggers);
    const seconds: Array<readonly TriggerInput[] | undefined> = rules.map(ruleSecondTriggers);
    const matcher = buildTriggerMatcher(matcherInputs(triggers, seconds), generatedMatcher);
    const ids = new Map(matcher.literals.map((l, id) => [l, id]));
    const idsOf = (l: readonly TriggerInput[] | undefined): number[] | undefined =>
      l ? [...new Set(l.map((t) => ids.get(triggerText(t))!))] : undefined;
    const compiled = compileEach(rules, triggers.map(idsOf), seconds.map(idsOf));
    const rulesOf = matcher.literals.map((): number[] => []);
    compiled.forEach((rule, r) => rule.triggers?.forEach((id) => rulesOf[id]!.push(r)));
    const untriggered = compiled.flatMap((rule, r) => (rule.triggers ? [] : [r]));
    table = { rules: compiled, triggers: matcher, rulesOf, untriggered, byRule: new Map(compiled.map((c) => [c.rule, c])) };
    compiledCache.set(rules, table);
  }
  return table;
}

/**
 * A rule's regular expression is built on first use: most runs wake a handful
 * of the table. One per rule, whether it runs over a whole text or one line:
 * on a single line the line-safe form matches as the rule does, and each
 * extra form cost V8 two more compiles (about 0.3 ms a rule on a first run).
 */
function compileEach(
  rules: readonly ThreatRule[],
  triggerIds: ReadonlyArray<number[] | undefined>,
  secondIds: ReadonlyArray<number[] | undefined>,
): CompiledRule[] {
  return rules.map((rule, i) => {
    let whole: RegExp | undefined;
    return {
      rule,
      get whole() {
        return (whole ??= compileLineRegex(rule.pattern));
      },
      triggers: triggerIds[i],
      second: secondIds[i],
    };
  });
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

const NO_LINES: readonly number[] = [];

/** Past this many candidate lines a rule is cheaper to run once over the whole text. */
const WHOLE_TEXT_SHARE = 8;

/** Lines on which one of `ids` occurs, ascending (the list itself when only one of them occurs). */
function linesOfAny(scan: RawScan, ids: readonly number[]): readonly number[] {
  // Most rules have one trigger in a file: answered without allocating.
  let first: number[] | undefined;
  let count = 0;
  for (const t of ids) {
    const list = scan.triggerLines[t];
    if (list === undefined) continue;
    first ??= list;
    count += 1;
  }
  if (count <= 1) return first ?? NO_LINES;
  const found = new Set<number>();
  for (const t of ids) for (const line of scan.triggerLines[t] ?? NO_LINES) found.add(line);
  return [...found].sort((a, b) => a - b);
}

/**
 * Lines holding one of the rule's triggers and, when it has second triggers,
 * one of those too, ascending; undefined means "run over the whole text".
 */
function candidateLines(scan: RawScan, rule: CompiledRule): readonly number[] | undefined {
  const cap = Math.max(64, scan.lines.count / WHOLE_TEXT_SHARE);
  const lines = linesOfAny(scan, rule.triggers!);
  if (!rule.second) return lines.length > cap ? undefined : lines;
  const also = new Set(linesOfAny(scan, rule.second));
  const both = lines.filter((line) => also.has(line));
  return both.length > cap ? undefined : both;
}

/** Whether a rule can match a text at all: a trigger and, if it has them, a second trigger occur in it. */
function mayMatch(rule: CompiledRule, present: ReadonlyArray<number[] | undefined>): boolean {
  if (!rule.triggers) return true;
  return rule.triggers.some((t) => present[t] !== undefined) && (!rule.second || rule.second.some((t) => present[t] !== undefined));
}

export interface RawScan {
  file: string;
  lines: TextLines;
  /** Per 0-based line, each rule's finding there: rule id to index in `out`. */
  seen: Map<number, Map<string, number>>;
  /** Whether a 1-based line is a code comment (context.ts); asked only for lines with a finding. */
  isComment: (line: number) => boolean;
  /** Lines of each trigger literal, by id (see trigger-index.ts). */
  triggerLines: Array<number[] | undefined>;
  /** Longest run of base64 characters in the text (rules with `base64Run` are skipped below it). */
  longestBase64Run: number;
  out: ScanFinding[];
}

function record(scan: RawScan, rule: ThreatRule, index: number, column: number, matched: string): void {
  if (rule.accept && !rule.accept(matched)) return;
  let onLine = scan.seen.get(index);
  const at = onLine?.get(rule.id);
  // A later match on the line counts only if the one found was lowered by its context (a negated or quoted mention).
  if (at !== undefined && scan.out[at]!.severity === rule.severity) return;
  if (!onLine) scan.seen.set(index, (onLine = new Map<string, number>()));
  const ctx = { file: scan.file, line: index + 1, text: scan.lines.at(index), comment: scan.isComment(index + 1) };
  addFinding(scan.out, onLine, toFinding(ctx, { rule, index: column - 1, length: matched.length }, 'raw', column, matched));
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
 * lines holding one (`hits`: all triggers are found in one pass, far cheaper
 * than a pass per rule); a rule without triggers, or whose triggers are on most
 * lines, runs once over the whole text. At most one finding per rule per line.
 */
export function scanRaw(scan: RawScan, text: string, table: CompiledTable, hits: TriggerHits): void {
  scan.triggerLines = hits.lines;
  // Only the rules one of whose triggers occurs, and those without triggers: most files wake a handful of the table.
  const live = new Set<number>(table.untriggered);
  for (const id of hits.found) for (const r of table.rulesOf[id]!) live.add(r);
  for (const r of [...live].sort((a, b) => a - b)) {
    const compiled = table.rules[r]!;
    // Not destructured: `whole` is a getter that compiles on first use.
    const { rule, triggers } = compiled;
    if (rule.base64Run !== undefined && scan.longestBase64Run < rule.base64Run) continue;
    if (!mayMatch(compiled, hits.lines)) continue;
    const candidates = triggers ? candidateLines(scan, compiled) : undefined;
    if (!candidates) {
      execAll(compiled.whole, text, (m) => {
        const index = lineIndexOf(scan.lines.starts, m.index);
        record(scan, rule, index, m.index - scan.lines.starts[index]! + 1, m[0]);
      });
      continue;
    }
    if (candidates.length === 0) continue;
    const regex = compiled.whole;
    for (const index of candidates) execAll(regex, scan.lines.at(index), (m) => record(scan, rule, index, m.index + 1, m[0]));
  }
}

/** The rules that can match `text` at all: those with no triggers and those with a trigger in it, in table order. */
export function selectRules(text: string, table: CompiledTable): ThreatRule[] {
  const { found, lines } = indexTriggerLines(text, table.triggers);
  const live = new Set<number>(table.untriggered);
  for (const id of found) for (const r of table.rulesOf[id]!) live.add(r);
  const out: ThreatRule[] = [];
  for (const r of [...live].sort((a, b) => a - b)) {
    const { rule } = table.rules[r]!;
    if (!mayMatch(table.rules[r]!, lines)) continue;
    // Every match holds `base64Run` base64 characters in a row, so a shorter text cannot match.
    if (rule.base64Run === undefined || text.length >= rule.base64Run) out.push(rule);
  }
  return out;
}
