import { requiredTriggers, secondTriggers, type Trigger } from './regex-literals.js';
import { generatedTriggers } from './rule-triggers.generated.js';
import type { ThreatRule } from './rules.js';

/**
 * JavaScript's `\s` without `\n` and `\r`, spelled out: `[^\S\n\r]` means
 * the same, but V8 runs it about 1.4 times slower (measured on the corpus's
 * lines, every rule, first run), and the scan runs these on every file.
 */
export const SPACE_NOT_LINE_BREAK = '[\\t\\v\\f \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]';

/**
 * Rules are written for one line; the scan runs each over a whole file at
 * once (one regex call per rule per file instead of per line, about ten times
 * faster). This rewrite keeps a match inside one line: `\s` outside a
 * character class becomes "whitespace but not a line break", and the `m` flag
 * makes `^`/`$` line anchors. Character classes are already line-safe (they
 * use `[^\n]` or negate `\s`).
 */
export function compileLineRegex(pattern: RegExp): RegExp {
  const src = pattern.source;
  let out = '';
  let inClass = false;
  for (let i = 0; i < src.length; i += 1) {
    const ch = src[i]!;
    if (ch === '\\') {
      const next = src[i + 1] ?? '';
      out += !inClass && next === 's' ? SPACE_NOT_LINE_BREAK : `\\${next}`;
      i += 1;
    } else {
      if (ch === '[' && !inClass) inClass = true;
      else if (ch === ']' && inClass) inClass = false;
      out += ch;
    }
  }
  const flags = new Set([...pattern.flags, 'g', 'm']);
  return new RegExp(out, [...flags].join(''));
}

/**
 * Literal strings (with what is known of their edges) at least one of which
 * occurs in any text the pattern matches, so a line without any of them is
 * skipped for that rule. Undefined when none can be derived (the rule then
 * always runs).
 */
export function deriveTriggers(pattern: RegExp): Trigger[] | undefined {
  return requiredTriggers(pattern);
}

/**
 * A rule's triggers: its own, else those derived from its pattern at build
 * time (rule-triggers.generated.ts, when the pattern is the one they were
 * derived from), else derived now (a rule table other than the built-in one).
 */
export function ruleTriggers(rule: ThreatRule): readonly (Trigger | string)[] | undefined {
  if (rule.triggers) return rule.triggers;
  const built = builtFor(rule);
  return built ? (built[1] ?? undefined) : deriveTriggers(rule.pattern);
}

/**
 * A second set of literals every match of the rule also holds
 * (`secondTriggers`): a line must hold one of these as well as one of
 * `ruleTriggers`. None for a rule whose triggers are written by hand.
 */
export function ruleSecondTriggers(rule: ThreatRule): readonly Trigger[] | undefined {
  if (rule.triggers) return undefined;
  const built = builtFor(rule);
  return built ? (built[2] ?? undefined) : deriveSecondTriggers(rule.pattern);
}

export function deriveSecondTriggers(pattern: RegExp): Trigger[] | undefined {
  return secondTriggers(pattern);
}

function builtFor(rule: ThreatRule): (typeof generatedTriggers)[string] | undefined {
  const built = Object.hasOwn(generatedTriggers, rule.id) ? generatedTriggers[rule.id] : undefined;
  return built && built[0] === rule.pattern.source ? built : undefined;
}
