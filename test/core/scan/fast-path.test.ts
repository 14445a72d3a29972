import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveTriggers } from '../../../src/core/scan/compile.js';
import { buildLineGates } from '../../../src/core/scan/line-gates.js';
import { scanSkillText } from '../../../src/core/scan/match.js';
import { THREAT_RULES } from '../../../src/core/scan/rules.js';
import { buildTriggerMatcher, indexTriggerLines } from '../../../src/core/scan/trigger-index.js';
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

/** What the scan did before its fast paths: every rule on every raw line, then every variant of every line. */
function referenceKeys(text: string): Set<string> {
  const keys = new Set<string>();
  text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .forEach((line, i) => {
      const seen = new Set<string>();
      const hit = (target: string, via: string): void => {
        for (const rule of THREAT_RULES) {
          if (seen.has(rule.id)) continue;
          // Raw lines report the first accepted match; variants only their first match (matchRules).
          const m = new RegExp(rule.pattern.source, `${rule.pattern.flags}g`);
          for (let r = m.exec(target); r; r = via === 'raw' ? m.exec(target) : null) {
            if (r[0].length === 0) m.lastIndex += 1;
            if (rule.accept && !rule.accept(r[0])) continue;
            keys.add(via === 'raw' ? `${i + 1}:${rule.id}:raw:${r.index + 1}` : `${i + 1}:${rule.id}:${via}`);
            seen.add(rule.id);
            break;
          }
        }
      };
      hit(line, 'raw');
      const normalized = buildNormalizedVariant(line);
      if (normalized) hit(normalized.text, 'normalized');
      const joined = buildJoinedVariant(normalized?.text ?? line);
      if (joined) hit(joined.text, 'joined');
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
  it('a line left out has no normalised, joined or base64 variant and no invisible character', () => {
    fc.assert(
      fc.property(gateText, (text) => {
        const gates = buildLineGates(text);
        const flagged = new Set(gates.variantLines);
        text.split('\n').forEach((line, i) => {
          if (!flagged.has(i)) {
            expect(buildNormalizedVariant(line)).toBeUndefined();
            expect(buildJoinedVariant(line)).toBeUndefined();
            expect(findBase64Text(line)).toEqual([]);
            expect(findInvisible(line)).toEqual([]);
          }
          expect(gates.nonAscii.has(i)).toBe(/[^\x00-\x7F]/.test(line));
        });
        const runs = text.match(/[A-Za-z0-9+/]+/g) ?? [];
        expect(gates.longestBase64Run).toBe(Math.max(0, ...runs.map((r) => r.length)));
      }),
      { numRuns: 400 },
    );
  });
});

describe('trigger matcher', () => {
  it('finds the same lines as a case-insensitive indexOf per literal', () => {
    const literal = fc.stringMatching(/^[a-c/.:]{1,4}$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(literal, { minLength: 1, maxLength: 8 }),
        fc.stringMatching(/^[a-cA-C/.:\n é]{0,80}$/),
        (literals, text) => {
          const matcher = buildTriggerMatcher(literals);
          const found = indexTriggerLines(text, matcher).lines;
          const lines = text.toLowerCase().split('\n');
          matcher.literals.forEach((lit, id) => {
            const expected = lines.flatMap((line, i) => (line.includes(lit) ? [i] : []));
            expect(found[id] ?? []).toEqual(expected);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

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
      for (const text of [hit, miss ?? '', `prefix\n  ${hit}\nsuffix`]) expect(scanKeys(text, 'x.sh'), id).toEqual(referenceKeys(text));
    }
  });

  it('on random text', () => {
    fc.assert(
      fc.property(gateText, (text) => {
        expect(scanKeys(text, 'SKILL.md')).toEqual(referenceKeys(text));
      }),
      { numRuns: 200 },
    );
  });

  it.skipIf(!existsSync(fixtures))('on the malicious fixtures', () => {
    for (const file of filesUnder(fixtures)) {
      const text = readFileSync(file, 'utf8');
      expect(scanKeys(text, file), file).toEqual(referenceKeys(text));
    }
  });

  // The reference is slow (every rule on every line): a sample of the corpus, the files with findings among them.
  it('on a sample of the real corpus (the fixture set when it is absent)', () => {
    const files = filesUnder(skillsRoot).filter((f) => /\.(?:md|sh|py|js|ts|txt|ya?ml|json)$/.test(f));
    const sample = files.filter((f, i) => i % 15 === 0 || /security|hack|pentest|shell|install|deploy/i.test(f)).slice(0, 160);
    for (const file of sample) {
      const text = readFileSync(file, 'utf8');
      if (text.length > 200_000) continue;
      expect(scanKeys(text, file), file).toEqual(referenceKeys(text));
    }
  }, 120_000);
});
