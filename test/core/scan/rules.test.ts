import { describe, expect, it } from 'vitest';
import { scanSkillText } from '../../../src/core/scan/match.js';
import { THREAT_RULES } from '../../../src/core/scan/rules.js';
import { SPECIAL_RULES } from '../../../src/core/scan/special-rules.js';
import { RULE_EXAMPLES } from './rule-examples.js';

const rulesOn = (line: string): string[] => scanSkillText(line, { file: 'x.sh' }).map((f) => f.rule);

describe('threat rules table', () => {
  it('has unique ids and at least the breadth of Hermes Agent’s guard', () => {
    const ids = [...THREAT_RULES, ...SPECIAL_RULES].map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(THREAT_RULES.length).toBeGreaterThanOrEqual(120);
    expect(new Set(THREAT_RULES.map((r) => r.category)).size).toBeGreaterThanOrEqual(12);
  });

  it('compiles every pattern without the g or y flag (patterns are shared)', () => {
    for (const rule of THREAT_RULES) expect(rule.pattern.flags, rule.id).not.toMatch(/[gy]/);
  });

  it('has an example for every rule', () => {
    expect(Object.keys(RULE_EXAMPLES).sort()).toEqual(THREAT_RULES.map((r) => r.id).sort());
  });

  it.each(THREAT_RULES.map((r) => [r.id]))('%s fires on its example at the right place', (id) => {
    const { hit } = RULE_EXAMPLES[id]!;
    const found = scanSkillText(`first line\n${hit}\n`, { file: 'x.sh' }).filter((f) => f.rule === id);
    expect(found).toHaveLength(1);
    expect(found[0]!.line).toBe(2);
    expect(hit.slice(found[0]!.column - 1)).toContain(found[0]!.match.slice(0, 10).replace(/…$/, ''));
  });

  it.each(THREAT_RULES.filter((r) => RULE_EXAMPLES[r.id]?.miss !== undefined).map((r) => [r.id]))(
    '%s stays quiet on its look-alike',
    (id) => {
      expect(rulesOn(RULE_EXAMPLES[id]!.miss!)).not.toContain(id);
    },
  );
});

describe('regex hygiene', () => {
  // Unbounded "anything" between two anchors is what backtracks catastrophically on long lines.
  const unbounded = /(?<!\\)\.[*+]|\[\^(?:\\.|[^\]\\])*\][*+]|\\S[*+]/;

  it.each(THREAT_RULES.map((r) => [r.id, r.pattern.source]))('%s bounds every wildcard repetition', (_id, source) => {
    expect(source).not.toMatch(unbounded);
  });
});
