import { demotionOf, findCommentLines, findHiddenCommentLines } from './context.js';
import { judgeInContext } from './context-judge.js';
import { GATE_BASE64, GATE_JOIN, GATE_WIDE } from './line-gates.js';
import { addFinding, matchRules, toFinding, type LineContext, type RuleHit } from './line-finding.js';
import { compileTable, scanRaw, selectRules, type CompiledTable, type RawScan } from './raw-scan.js';
import { HIDDEN_INSTRUCTION, THREAT_RULES, type ThreatRule } from './rules.js';
import { SPECIAL_RULES, specialFinding } from './special-rules.js';
import { applyInlineSuppressions } from './suppress.js';
import { buildTextLines } from './text-lines.js';
import { passText } from './text-pass.js';
import type { ScanFinding, ScanVia } from './types.js';
import { findInvisible } from './unicode.js';
import { buildJoinedVariant, buildNormalizedVariant, findBase64Text, type LineVariant } from './variants.js';

export interface ScanTextOptions {
  /** The path reported in findings. */
  file: string;
  /** Defaults to every threat rule. */
  rules?: readonly ThreatRule[];
}

/** Every rule id a suppression marker may name. */
export const KNOWN_RULE_IDS: ReadonlySet<string> = new Set([...THREAT_RULES, ...SPECIAL_RULES].map((r) => r.id));

/** What a variant of a line is scanned against: the findings already on the line (rule id to index in `out`). */
interface LineFindings {
  out: ScanFinding[];
  onLine: Map<string, number>;
}

/** The rules not yet found at full strength on the line: a variant may still find one its raw line only mentioned. */
function stillOpen(rules: readonly ThreatRule[], found: LineFindings): ThreatRule[] {
  return rules.filter((rule) => {
    const at = found.onLine.get(rule.id);
    return at === undefined || found.out[at]!.severity !== rule.severity;
  });
}

function scanVariant(ctx: LineContext, variant: LineVariant, via: ScanVia, found: LineFindings, table: CompiledTable): void {
  const place = (hit: RuleHit): [number, number] => {
    const start = variant.origin[hit.index] ?? 0;
    return [start, (variant.origin[hit.index + hit.length - 1] ?? start) + 1];
  };
  const counts = (hit: RuleHit): boolean => demotionOf(hit.rule, ctx.text, ...place(hit), { via, comment: ctx.comment }) === undefined;
  // A variant is one line (nothing it is built from reads as a line break): the rule's line-safe form serves.
  const lineSafe = (rule: ThreatRule): RegExp => table.byRule.get(rule)!.whole;
  for (const hit of matchRules(variant.text, stillOpen(selectRules(variant.text, table), found), counts, lineSafe)) {
    const [start, end] = place(hit);
    addFinding(found.out, found.onLine, toFinding(ctx, hit, via, start + 1, ctx.text.slice(start, end)));
  }
}

/** The variants `kinds` (line-gates.ts) says the line can have: a plain ASCII line is not normalised, and so on. */
function scanVariants(ctx: LineContext, kinds: number, found: LineFindings, table: CompiledTable): void {
  const normalized = (kinds & GATE_WIDE) !== 0 ? buildNormalizedVariant(ctx.text) : undefined;
  if (normalized) scanVariant(ctx, normalized, 'normalized', found, table);
  // Normalising can make a split string (fullwidth quotes read as quotes): the joined variant is tried then too.
  const joined = normalized || (kinds & GATE_JOIN) !== 0 ? buildJoinedVariant(normalized?.text ?? ctx.text) : undefined;
  if (joined) {
    const origin = normalized ? joined.origin.map((i) => normalized.origin[i] ?? i) : joined.origin;
    scanVariant(ctx, { text: joined.text, origin }, 'joined', found, table);
  }
  if ((kinds & GATE_BASE64) === 0) return;
  for (const token of findBase64Text(ctx.text)) {
    for (const hit of matchRules(token.text, stillOpen(selectRules(token.text, table), found)))
      addFinding(found.out, found.onLine, toFinding(ctx, hit, 'base64', token.column, token.text.slice(hit.index, hit.index + hit.length)));
  }
}

const hiddenCommentRule = THREAT_RULES.find((r) => r.id === 'inject-hidden-comment')!;

/** Instructions on the inner lines of a multi-line HTML comment (the one-line rule only sees the opening line). */
function scanHiddenComments(
  file: string,
  lines: readonly string[],
  seen: ReadonlyMap<number, ReadonlyMap<string, number>>,
  rules: readonly ThreatRule[],
): ScanFinding[] {
  if (!rules.includes(hiddenCommentRule)) return [];
  const out: ScanFinding[] = [];
  for (const line of findHiddenCommentLines(file, lines)) {
    const text = lines[line - 1]!;
    const m = HIDDEN_INSTRUCTION.exec(text);
    if (!m || seen.get(line - 1)?.has(hiddenCommentRule.id)) continue;
    const ctx = { file, line, text, comment: false };
    const found = toFinding(ctx, { rule: hiddenCommentRule, index: m.index, length: m[0].length }, 'raw', m.index + 1, m[0]);
    out.push({ ...found, message: `${found.message} (inside a multi-line HTML comment)` });
  }
  return out;
}

function scanInvisible(ctx: LineContext): ScanFinding[] {
  return findInvisible(ctx.text, { fileStart: ctx.line === 1 }).map((hit) =>
    specialFinding(hit.rule, {
      file: ctx.file,
      line: ctx.line,
      column: hit.column,
      match: hit.codePoints.join(' '),
      detail: `${hit.codePoints.join(', ')}${hit.count > 1 ? ` (${hit.count} in all)` : ''}`,
    }),
  );
}

/** A line with variants to scan: whether it is a comment is asked only when it has a finding. */
class VariantLine implements LineContext {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly text: string,
    private readonly isComment: (line: number) => boolean,
  ) {}
  get comment(): boolean {
    return this.isComment(this.line);
  }
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
  const file = options.file;
  const unified = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  const table = compileTable(rules);
  // One pass finds the trigger literals, the line starts and the line gates; lines are cut only where needed.
  const pass = passText(unified, table.triggers);
  const lines = buildTextLines(unified, pass.lineStarts);
  let comments: ReadonlySet<number> | undefined;
  const isComment = (line: number): boolean => (comments ??= findCommentLines(file, lines.list())).has(line);
  const scan: RawScan = {
    file,
    lines,
    seen: new Map(),
    isComment,
    triggerLines: [],
    longestBase64Run: pass.longestBase64Run,
    out: [],
  };
  scanRaw(scan, unified, table, pass.hits);
  const { out, seen } = scan;
  if (unified.includes('<!--')) out.push(...scanHiddenComments(file, lines.list(), seen, rules));
  // Only lines whose variants can differ from the raw line (see line-gates.ts); the others have nothing more to find.
  pass.variantLines.forEach((i, k) => {
    const ctx = new VariantLine(file, i + 1, lines.at(i), isComment);
    let onLine = seen.get(i);
    if (!onLine) seen.set(i, (onLine = new Map<string, number>()));
    scanVariants(ctx, pass.variantKinds[k]!, { out, onLine }, table);
    if (pass.nonAscii.has(i)) out.push(...scanInvisible(ctx));
  });
  // A suppression marker is only ever on a line holding `skillgarden-ignore` (suppress.ts).
  const marked = unified.includes('skillgarden-ignore');
  if (out.length === 0 && !marked) return out;
  const judged = judgeInContext(out, file, lines.list());
  judged.sort((a, b) => a.line - b.line || a.column - b.column || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0));
  return marked ? applyInlineSuppressions(file, lines.list(), judged, KNOWN_RULE_IDS) : judged;
}
