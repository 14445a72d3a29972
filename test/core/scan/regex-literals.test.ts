import { describe, expect, it } from 'vitest';
import {
  parseRegexSource,
  requiredLiterals,
  requiredTriggers,
  secondTriggers,
  type RegexNode,
  type Trigger,
} from '../../../src/core/scan/regex-literals.js';
import { THREAT_RULES } from '../../../src/core/scan/rules.js';
import { seededRandom } from '../../helpers/random.js';

const alphabet = [...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)), '\t', '\u00a0', 'é'];
const setCache = new Map<string, string[]>();

/** The characters of the sample alphabet a one-character node matches (its own characters first, in both cases). */
function charsOf(node: Extract<RegexNode, { kind: 'set' }>, flags: string): string[] {
  const key = `${node.source}/${flags}`;
  let chars = setCache.get(key);
  if (!chars) {
    const one = new RegExp(`^(?:${node.source})$`, flags.replace(/[gmy]/g, ''));
    const own = (node.chars ?? []).flatMap((c) => [c, c.toUpperCase()]);
    chars = [...new Set([...own, ...alphabet])].filter((c) => one.test(c));
    setCache.set(key, chars);
  }
  return chars;
}

/** A random string built along the tree: not always a match (assertions are ignored), so each is checked with the real regex. */
function sample(nodes: readonly RegexNode[], flags: string, random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const one = (node: RegexNode): string => {
    switch (node.kind) {
      case 'set': {
        const chars = charsOf(node, flags);
        // Mostly the node's own characters: a literal text is what reaches the rest of the pattern.
        return chars.length === 0 ? '' : node.chars && random() < 0.9 ? pick(chars.slice(0, node.chars.length * 2)) : pick(chars);
      }
      case 'empty':
      case 'backref':
        return '';
      case 'group':
        return sample(pick(node.alternatives), flags, random);
      case 'repeat': {
        const count = node.min + Math.floor(random() * (Math.min(node.max, node.min + 3) - node.min + 1));
        return Array.from({ length: count }, () => one(node.node)).join('');
      }
    }
  };
  return nodes.map(one).join('');
}

const isWord = (ch: string | undefined): boolean => ch !== undefined && /[A-Za-z0-9_]/.test(ch);

/** Whether `t` occurs inside `haystack[from, from + length)` with the edges it claims. */
function occursWithin(haystack: string, from: number, length: number, t: Trigger): boolean {
  const lower = haystack.toLowerCase();
  for (let at = lower.indexOf(t.text, from); at >= 0 && at + t.text.length <= from + length; at = lower.indexOf(t.text, at + 1)) {
    if (t.before && isWord(haystack[at - 1])) continue;
    if (t.after && isWord(haystack[at + t.text.length])) continue;
    return true;
  }
  return false;
}

describe('required literals', () => {
  it('reads the rarest literal a match must hold', () => {
    expect(requiredLiterals(/\b(?:cat|nc)\b[^\n]{0,120}\.ssh\/id_(?:rsa|dsa)/)).toEqual(['.ssh/id_rsa', '.ssh/id_dsa']);
    expect(requiredLiterals(/curl\s+\S+|wget\s+\S+/)).toEqual(['curl', 'wget']);
    expect(requiredLiterals(/[rR]m\s+-rf/i)).toEqual(['-rf']);
    expect(requiredLiterals(/\d+\s+\w+/)).toBeUndefined();
    expect(requiredLiterals(/(?:foo)?bar/)).toEqual(['bar']);
    expect(requiredLiterals(/(?:ab|cd)(?:ef|gh)/)).toEqual(['abef', 'abgh', 'cdef', 'cdgh']);
    expect(requiredLiterals(/a|\s/)).toBeUndefined();
    // Class members written as escapes, ranges whose end is an escape.
    expect(requiredLiterals(/q[\x41]zz/)).toEqual(['qazz']);
    expect(requiredLiterals(/[!-\x2f]token/)).toEqual(['token']);
  });

  it('knows when a literal stands at a word or line edge', () => {
    expect(requiredTriggers(/\b(?:nc|ncat)\s+-l/)).toEqual([
      { text: 'nc', before: true, after: true },
      { text: 'ncat', before: true, after: true },
    ]);
    expect(requiredTriggers(/^curl\b/)).toEqual([{ text: 'curl', before: true, after: true }]);
    expect(requiredTriggers(/[;&|]\s+curl\s/)).toEqual([{ text: 'curl', before: true, after: true }]);
    // Whitespace that may be absent says nothing about the edge.
    expect(requiredTriggers(/^\s*curl\b/)).toEqual([{ text: 'curl', before: false, after: true }]);
    // `\b` before a non-word character asserts a word character there, not a free edge.
    expect(requiredTriggers(/\b\.env\b/)).toEqual([{ text: '.env', before: false, after: true }]);
    expect(requiredTriggers(/x\s{0,3}token/)).toEqual([{ text: 'token', before: false, after: false }]);
    // An edge outside a group holds for its alternatives' literals, but not through a repeat of the group.
    expect(requiredTriggers(/\b(?:env|set|export\s+-p)\s*\|/)).toEqual([
      { text: 'env', before: true, after: false },
      { text: 'set', before: true, after: false },
      { text: 'export', before: true, after: true },
    ]);
    expect(requiredTriggers(/\s(?:zork|quux\s+-p)\b/)).toEqual([
      { text: 'zork', before: true, after: true },
      { text: 'quux', before: true, after: true },
    ]);
    expect(requiredTriggers(/\b(?:zork|quux\s+-p){2}/)).toEqual([
      { text: 'zork', before: false, after: false },
      { text: 'quux', before: false, after: true },
    ]);
  });

  it('parses every rule of the table', () => {
    for (const rule of THREAT_RULES) expect(() => parseRegexSource(rule.pattern.source), rule.id).not.toThrow();
  });

  it('reads a second set every match also holds, when the pattern has one alternative', () => {
    expect(secondTriggers(/\b(?:developer|god)\s+mode\b/)).toEqual([
      { text: 'developer', before: true, after: true },
      { text: 'god', before: true, after: true },
    ]);
    expect(requiredLiterals(/\b(?:developer|god)\s+mode\b/)).toEqual(['mode']);
    // Alternatives at the top, or a second set each first literal already holds, give none.
    expect(secondTriggers(/curl\s+\S+|wget\s+-q/)).toBeUndefined();
    expect(secondTriggers(/\/etc\/(?:shadow|gshadow)/)).toBeUndefined();
    // A common short literal is not worth a look-up.
    expect(secondTriggers(/\bpassword\s*=/)).toBeUndefined();
  });

  it("every match of a rule, on random texts built from its pattern, holds one of the rule's triggers and one of its second triggers", () => {
    const random = seededRandom(9);
    for (const rule of THREAT_RULES) {
      const triggers: Trigger[] | undefined =
        rule.triggers?.map((text) => ({ text, before: false, after: false })) ?? requiredTriggers(rule.pattern);
      if (!triggers) continue;
      const second = rule.triggers ? undefined : secondTriggers(rule.pattern);
      const tree = parseRegexSource(rule.pattern.source);
      const regex = new RegExp(rule.pattern.source, rule.pattern.flags.replace('g', ''));
      let matched = 0;
      for (let i = 0; i < 300; i += 1) {
        const text = sample(tree[Math.floor(random() * tree.length)]!, rule.pattern.flags, random);
        const haystack = ` ${text} `;
        const m = regex.exec(haystack);
        if (!m) continue;
        matched += 1;
        expect(
          triggers.some((t) => occursWithin(haystack, m.index, m[0].length, t)),
          `${rule.id}: "${m[0]}" holds none of ${JSON.stringify(triggers)}`,
        ).toBe(true);
        if (second)
          expect(
            second.some((t) => occursWithin(haystack, m.index, m[0].length, t)),
            `${rule.id}: "${m[0]}" holds none of its second triggers ${JSON.stringify(second)}`,
          ).toBe(true);
      }
      // Texts that never match would prove nothing.
      expect(matched, rule.id).toBeGreaterThan(0);
    }
  });
});
