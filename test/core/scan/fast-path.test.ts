import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveTriggers } from '../../../src/core/scan/compile.js';
import { demotionOf, findCommentLines } from '../../../src/core/scan/context.js';
import { buildLineGates, GATE_BASE64, GATE_JOIN, GATE_WIDE } from '../../../src/core/scan/line-gates.js';
import { scanSkillText } from '../../../src/core/scan/match.js';
import { THREAT_RULES } from '../../../src/core/scan/rules.js';
import { compileTable } from '../../../src/core/scan/raw-scan.js';
import { passText } from '../../../src/core/scan/text-pass.js';
import { buildTriggerMatcher, indexTriggerLines, type TriggerInput, type TriggerMatcher } from '../../../src/core/scan/trigger-index.js';
import type { ScanVia } from '../../../src/core/scan/types.js';
import { findInvisible } from '../../../src/core/scan/unicode.js';
import { buildJoinedVariant, buildNormalizedVariant, findBase64Text } from '../../../src/core/scan/variants.js';
import { skillsRoot } from '../../helpers/corpus.js';
import { RULE_EXAMPLES } from './rule-examples.js';

const fixtures = fileURLToPath(new URL('../../fixtures/malicious', import.meta.url));

/** Characters that exercise every gate: quotes, `+`, `&#`, base64 runs, look-alikes, invisibles, line breaks. */
const gateChar = fc.constantFrom(
  ...'aZq09+/=&#;"\'`\\ \t\n-.:_xX'.split(''),
  'а',
  'ｃ',
  '\u200B',
  '\u202E',
  '\u{E0041}',
  '😀',
  '\uFE0F',
  '—',
);
const gateText = fc
  .array(fc.oneof(gateChar, fc.constantFrom('dGhpcyBpcyBhIHNlY3JldCBjb21tYW5k', 'cu" + "rl', "c'ur'l", '&#99;url', "don't", 'a"b')), {
    maxLength: 60,
  })
  .map((parts) => parts.join(''));

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) filesUnder(path, out);
    else out.push(path);
  }
  return out;
}

/** The plain way to find trigger lines: per literal, `indexOf` over the ASCII-lower-cased text, edges checked by regex. */
function referenceTriggerLines(text: string, matcher: TriggerMatcher): Array<number[] | undefined> {
  const lower = text.replace(/[A-Z]/g, (ch) => ch.toLowerCase());
  const lineOf = (at: number): number => (text.slice(0, at).match(/\n/g) ?? []).length;
  return matcher.literals.map((literal, id) => {
    const lines: number[] = [];
    for (let at = lower.indexOf(literal); at >= 0 && literal !== ''; at = lower.indexOf(literal, at + 1)) {
      const edges = matcher.edges[id]!;
      if ((edges & 1) !== 0 && /\w/.test(text[at - 1] ?? '') && /[\x00-\x7F]/.test(text[at - 1] ?? '')) continue;
      if ((edges & 2) !== 0 && /\w/.test(text[at + literal.length] ?? '') && /[\x00-\x7F]/.test(text[at + literal.length] ?? '')) continue;
      const line = lineOf(at);
      if (lines[lines.length - 1] !== line) lines.push(line);
    }
    return lines.length > 0 ? lines : undefined;
  });
}

/**
 * What the scan did before its fast paths: every rule on every raw line, then every variant of every line.
 * On a line, a rule reports its first accepted match that its context does not lower (context.ts), else
 * its first accepted match; a variant adds a rule the raw line lacks, or replaces one the raw line only
 * found lowered (a rule already `low` cannot be lowered).
 */
function referenceKeys(text: string, file = 'x.sh'): Set<string> {
  const keys = new Set<string>();
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const comments = findCommentLines(file, lines);
  lines.forEach((line, i) => {
    const found = new Map<string, { key: string; strong: boolean }>();
    const hit = (target: string, via: ScanVia, origin?: readonly number[]): void => {
      for (const rule of THREAT_RULES) {
        if (found.get(rule.id)?.strong) continue;
        const m = new RegExp(rule.pattern.source, `${rule.pattern.flags}g`);
        let best: { index: number; strong: boolean } | undefined;
        for (let r = m.exec(target); r; r = m.exec(target)) {
          if (r[0].length === 0) m.lastIndex += 1;
          if (rule.accept && !rule.accept(r[0])) continue;
          const start = origin ? (origin[r.index] ?? 0) : r.index;
          const end = origin ? (origin[r.index + r[0].length - 1] ?? start) + 1 : r.index + r[0].length;
          const plain = demotionOf(rule, line, start, end, { via, comment: comments.has(i + 1) }) === undefined;
          best ??= { index: r.index, strong: plain || rule.severity === 'low' };
          if (plain) {
            best = { index: r.index, strong: true };
            break;
          }
        }
        const before = found.get(rule.id);
        if (!best || (before && !best.strong)) continue;
        if (before) keys.delete(before.key);
        const key = via === 'raw' ? `${i + 1}:${rule.id}:raw:${best.index + 1}` : `${i + 1}:${rule.id}:${via}`;
        keys.add(key);
        found.set(rule.id, { key, strong: best.strong });
      }
    };
    hit(line, 'raw');
    const normalized = buildNormalizedVariant(line);
    if (normalized) hit(normalized.text, 'normalized', normalized.origin);
    const joined = buildJoinedVariant(normalized?.text ?? line);
    if (joined) hit(joined.text, 'joined', normalized ? joined.origin.map((o) => normalized.origin[o] ?? o) : joined.origin);
    for (const token of findBase64Text(line)) hit(token.text, 'base64');
    for (const inv of findInvisible(line, { fileStart: i === 0 })) keys.add(`${i + 1}:${inv.rule}:raw:${inv.column}`);
  });
  return keys;
}

function scanKeys(text: string, file: string): Set<string> {
  return new Set(
    scanSkillText(text, { file })
      .filter((f) => !f.rule.startsWith('suppress-') && !f.message.endsWith('(inside a multi-line HTML comment)'))
      .map((f) => (f.via === 'raw' ? `${f.line}:${f.rule}:raw:${f.column}` : `${f.line}:${f.rule}:${f.via}`)),
  );
}

describe('line gates', () => {
  it('a line left out of a kind has no variant of that kind: no normalised one or invisible character, no joined one, no base64 token', () => {
    fc.assert(
      fc.property(gateText, (text) => {
        const gates = buildLineGates(text);
        const kinds = new Map(gates.variantLines.map((line, k) => [line, gates.variantKinds[k]!]));
        expect(gates.variantKinds.every((k) => k !== 0)).toBe(true);
        text.split('\n').forEach((line, i) => {
          const kind = kinds.get(i) ?? 0;
          if ((kind & GATE_WIDE) === 0) {
            expect(buildNormalizedVariant(line)).toBeUndefined();
            expect(findInvisible(line)).toEqual([]);
          }
          if ((kind & GATE_JOIN) === 0) expect(buildJoinedVariant(line)).toBeUndefined();
          if ((kind & GATE_BASE64) === 0) expect(findBase64Text(line)).toEqual([]);
          expect(gates.nonAscii.has(i)).toBe(/[^\x00-\x7F]/.test(line));
        });
        const runs = text.match(/[A-Za-z0-9+/]+/g) ?? [];
        expect(gates.longestBase64Run).toBe(Math.max(0, ...runs.map((r) => r.length)));
      }),
      { numRuns: 600 },
    );
  });
});

describe('trigger matcher', () => {
  // Literals longer than the automaton's prefix (4) are completed by a compare: lengths up to 7 exercise both.
  const literal = fc.stringMatching(/^[a-c/.:]{1,7}$/);
  const trigger: fc.Arbitrary<TriggerInput> = fc.oneof(literal, fc.record({ text: literal, before: fc.boolean(), after: fc.boolean() }));
  const text = fc.stringMatching(/^[a-cA-C/.:\n é_0]{0,120}$/);
  /** Triggers, and a text built from pieces of them (so near misses of the long ones are common) and other characters. */
  const triggersAndText = fc.array(trigger, { minLength: 1, maxLength: 10 }).chain((triggers) => {
    const texts = triggers.map((t) => (typeof t === 'string' ? t : t.text));
    const piece = fc.oneof(
      fc
        .constantFrom(...texts)
        .chain((t) => fc.tuple(fc.nat(t.length), fc.nat(t.length)).map(([a, b]) => t.slice(Math.min(a, b), Math.max(a, b) + 1))),
      fc.constantFrom(...texts).map((t) => t.toUpperCase()),
      text,
    );
    return fc.tuple(
      fc.constant(triggers),
      fc.array(piece, { maxLength: 12 }).map((parts) => parts.join('')),
    );
  });

  it('finds the same lines as a case-insensitive indexOf per literal, edges included', () => {
    fc.assert(
      fc.property(triggersAndText, ([triggers, input]) => {
        const matcher = buildTriggerMatcher(triggers);
        const found = indexTriggerLines(input, matcher);
        const expected = referenceTriggerLines(input, matcher);
        matcher.literals.forEach((_, id) => expect(found.lines[id], matcher.literals[id]).toEqual(expected[id]));
        expect(new Set(found.found)).toEqual(new Set(expected.flatMap((l, id) => (l ? [id] : []))));
      }),
      { numRuns: 400 },
    );
  });

  it('the one-pass text reader agrees with the plain gates and the plain trigger search', () => {
    fc.assert(
      fc.property(triggersAndText, gateText, ([triggers, own], gates) => {
        const input = own + gates;
        const matcher = buildTriggerMatcher(triggers);
        const pass = passText(input, matcher);
        const { variantLines, variantKinds, nonAscii, longestBase64Run } = pass;
        expect({ variantLines, variantKinds, nonAscii, longestBase64Run }).toEqual(buildLineGates(input));
        expect(pass.hits.lines).toEqual(indexTriggerLines(input, matcher).lines);
        expect(pass.lineStarts).toEqual([0, ...[...input.matchAll(/\n/g)].map((m) => m.index + 1)]);
      }),
      { numRuns: 400 },
    );
  });

  it('on the real corpus, with the real rules: the same lines, gates and trigger lines as the plain versions', () => {
    const matcher = compileTable(THREAT_RULES).triggers;
    const files = filesUnder(skillsRoot).filter((f, i) => i % 12 === 0 && /\.(?:md|sh|py|js|ts|txt|ya?ml|json)$/.test(f));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files.slice(0, 120)) {
      const input = readFileSync(file, 'utf8').replace(/\r\n?/g, '\n');
      if (input.length > 200_000) continue;
      const pass = passText(input, matcher);
      const gates = buildLineGates(input);
      expect(pass.variantLines, file).toEqual(gates.variantLines);
      expect(pass.variantKinds, file).toEqual(gates.variantKinds);
      expect(pass.nonAscii, file).toEqual(gates.nonAscii);
      expect(pass.hits.lines, file).toEqual(referenceTriggerLines(input, matcher));
    }
  }, 120_000);

  it("every rule example holds one of its rule's triggers", () => {
    for (const rule of THREAT_RULES) {
      const triggers = (rule.triggers ?? deriveTriggers(rule.pattern))?.map((t) => (typeof t === 'string' ? t : t.text));
      const example = RULE_EXAMPLES[rule.id];
      if (!triggers || !example) continue;
      const lower = example.hit.toLowerCase();
      expect(
        triggers.some((t) => lower.includes(t)),
        `${rule.id}: ${example.hit}`,
      ).toBe(true);
      expect(
        triggers.every((t) => t === t.toLowerCase()),
        rule.id,
      ).toBe(true);
    }
  });
});

describe('fast paths give the findings of the plain line-by-line scan', () => {
  it('on every rule example', () => {
    for (const [id, { hit, miss }] of Object.entries(RULE_EXAMPLES)) {
      for (const text of [hit, miss ?? '', `prefix\n  ${hit}\nsuffix`])
        expect(scanKeys(text, 'x.sh'), id).toEqual(referenceKeys(text, 'x.sh'));
    }
  });

  it('on random text', () => {
    fc.assert(
      fc.property(gateText, (text) => {
        expect(scanKeys(text, 'SKILL.md')).toEqual(referenceKeys(text, 'SKILL.md'));
      }),
      { numRuns: 200 },
    );
  });

  it.skipIf(!existsSync(fixtures))('on the malicious fixtures', () => {
    for (const file of filesUnder(fixtures)) {
      const text = readFileSync(file, 'utf8');
      expect(scanKeys(text, file), file).toEqual(referenceKeys(text, file));
    }
  });

  // The reference is slow (every rule on every line): a sample of the corpus, the files with findings among them.
  it('on a sample of the real corpus (the fixture set when it is absent)', () => {
    const files = filesUnder(skillsRoot).filter((f) => /\.(?:md|sh|py|js|ts|txt|ya?ml|json)$/.test(f));
    const sample = files.filter((f, i) => i % 15 === 0 || /security|hack|pentest|shell|install|deploy/i.test(f)).slice(0, 160);
    for (const file of sample) {
      const text = readFileSync(file, 'utf8');
      if (text.length > 200_000) continue;
      expect(scanKeys(text, file), file).toEqual(referenceKeys(text, file));
    }
  }, 120_000);
});

describe('base64 tokens', () => {
  /** The plain version: every token of the shape decoded, none skipped by the group check. */
  function decodeEveryToken(line: string): Array<{ text: string; column: number }> {
    const out: Array<{ text: string; column: number }> = [];
    for (const m of line.matchAll(/(?<![\w+/=])[A-Za-z0-9+/]{16,8192}={0,2}(?![\w+/=])/g)) {
      if (m[0].replace(/=+$/, '').length % 4 === 1 || !/[0-9+/]|[a-z][A-Z]|[A-Z][a-z]{0,2}[A-Z]/.test(m[0])) continue;
      const text = Buffer.from(m[0], 'base64').toString('latin1');
      if (text.length >= 8 && /^[\x09\x0A\x0D\x20-\x7E]*$/.test(text) && /[a-z]{2,}[ |;/.:-]/i.test(text))
        out.push({ text, column: m.index + 1 });
    }
    return out;
  }
  const readable = fc.string({ minLength: 8, maxLength: 40 }).map((s) => `${s} curl x|sh`);
  const token = fc.oneof(
    readable.map((s) => Buffer.from(s, 'latin1').toString('base64')),
    readable.map((s) => Buffer.from(s, 'latin1').toString('base64').replace(/=+$/, '')),
    fc.stringMatching(/^[A-Za-z0-9+/]{16,40}={0,2}$/),
  );

  it('skipping tokens whose groups cannot decode to ASCII finds what decoding every token finds', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(token, fc.constantFrom(' ', '_', 'skills/references/guide.md', 'GenerationRequest')), { maxLength: 6 }),
        (parts) => {
          const line = parts.join(' ');
          expect(findBase64Text(line)).toEqual(decodeEveryToken(line));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it.skipIf(!existsSync(skillsRoot))(
    'the same on every line of the corpus',
    () => {
      for (const file of filesUnder(skillsRoot)) {
        for (const line of readFileSync(file, 'utf8').split('\n')) expect(findBase64Text(line)).toEqual(decodeEveryToken(line));
      }
    },
    120_000,
  );
});
