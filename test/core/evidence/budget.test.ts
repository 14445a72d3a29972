import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listingBudgets } from '../../../src/core/evidence/budget.js';
import type { ListedSkill } from '../../../src/core/evidence/types.js';

const skill = (name: string, descLength: number, loaded = 0, extra: Partial<ListedSkill> = {}): ListedSkill => ({
  name,
  description: 'd'.repeat(descLength),
  loaded,
  ...extra,
});

describe('listing limits', () => {
  it('derives each limit from the context window at four characters a token', () => {
    const budgets = listingBudgets([skill('a', 10)]);
    expect(budgets['claude-code']?.limit_chars).toBe(8_000);
    expect(budgets.codex?.limit_chars).toBe(16_000);
    expect(budgets['gemini-cli']?.limit_chars).toBe(800_000);
    expect(listingBudgets([skill('a', 10)], { contextTokens: 1_000_000 })['claude-code']?.limit_chars).toBe(40_000);
    for (const b of Object.values(budgets)) expect(b.source).toMatch(/^https:\/\//);
  });

  it('lists every skill when the library is within every budget', () => {
    const budgets = listingBudgets([skill('a', 100, 2), skill('b', 100)]);
    for (const b of Object.values(budgets)) {
      expect(b.dropped).toEqual([]);
      expect(b.advice).toEqual([]);
      expect(b.used_chars).toBeLessThanOrEqual(b.limit_chars);
    }
  });
});

describe('claude-code', () => {
  // 10,000 tokens: 400 characters. Bare names cost "- a\n" (4 each); a description adds ": " and its text.
  const options = { contextTokens: 10_000, clients: ['claude-code'] as const };

  it('keeps descriptions for the most-loaded skills and drops the least-loaded first', () => {
    const b = listingBudgets([skill('c', 200, 0), skill('a', 100, 5), skill('b', 150, 1)], options)['claude-code'];
    expect(b?.limit_chars).toBe(400);
    expect(b?.used_chars).toBe(12 + 102 + 152 + 202);
    expect(b?.fits).toEqual(['a', 'b']);
    expect(b?.dropped).toEqual(['c']);
  });

  it('ranks equal loads by the latest load, then by name', () => {
    const skills = [
      skill('x', 190, 3, { last_loaded: '2026-01-01T00:00:00Z' }),
      skill('y', 190, 3, { last_loaded: '2026-02-01T00:00:00Z' }),
    ];
    expect(listingBudgets([...skills, skill('z', 190, 3)], options)['claude-code']?.fits).toEqual(['y', 'x']);
  });

  it('counts when_to_use with the description, cut at 1,536 characters an entry', () => {
    const withWhen = skill('a', 100, 0, { when_to_use: 'w'.repeat(99) });
    expect(listingBudgets([withWhen], options)['claude-code']?.used_chars).toBe(4 + 2 + 200);
    const huge = listingBudgets([skill('a', 5_000)], { contextTokens: 1_000_000 })['claude-code'];
    expect(huge?.used_chars).toBe(4 + 2 + 1_536);
  });

  it('stops granting descriptions at the first that does not fit, as the listing cuts off by rank', () => {
    const b = listingBudgets([skill('a', 100, 3), skill('b', 300, 2), skill('c', 10, 1)], options)['claude-code'];
    expect(b?.fits).toEqual(['a']);
    expect(b?.dropped).toEqual(['b', 'c']);
  });
});

describe('codex', () => {
  const bare = (name: string) => `- ${name}: (file: r0/${name}/SKILL.md)\n`.length;

  it('shortens every description to about the same length before dropping any skill', () => {
    // Room for 2 × (1 + 50) description characters: the short one fits whole, the long ones are cut.
    const skills = [skill('aa', 20), skill('bb', 300), skill('cc', 300)];
    const limit = bare('aa') + bare('bb') + bare('cc') + 21 + 2 * 51;
    const b = listingBudgets(skills, { contextTokens: limit / 0.08, clients: ['codex'] }).codex;
    expect(b?.limit_chars).toBe(limit);
    expect(b?.fits).toEqual(['aa']);
    expect(b?.dropped).toEqual(['bb', 'cc']);
  });

  it('lists in name order and gives the leftover characters to the first descriptions', () => {
    // One character past a full round: the first cut description in name order gets it.
    const skills = [skill('zz', 11), skill('aa', 11)];
    const limit = bare('aa') + bare('zz') + 2 * 11 + 1;
    const b = listingBudgets(skills, { contextTokens: limit / 0.08, clients: ['codex'] }).codex;
    expect(b?.fits).toEqual(['aa']);
    expect(b?.dropped).toEqual(['zz']);
  });
});

describe('gemini-cli', () => {
  it('has no listing budget of its own: only the whole context limits it', () => {
    const many = Array.from({ length: 300 }, (_, i) => skill(`s${String(i).padStart(3, '0')}`, 1_000));
    const b = listingBudgets(many, { clients: ['gemini-cli'] })['gemini-cli'];
    expect(b?.dropped).toEqual([]);
    expect(b?.fits[0]).toBe('s000');
    expect(listingBudgets(many, { clients: ['claude-code'] })['claude-code']?.dropped.length).toBeGreaterThan(250);
  });
});

describe('advice', () => {
  const options = { contextTokens: 10_000, clients: ['claude-code'] as const };

  it('names needed skills the budget hides first, then planned merges, then the longest never-loaded descriptions', () => {
    const skills = [
      skill('used', 150, 9),
      skill('needed', 120, 0, { missed: 6 }),
      skill('long-idle', 260, 0),
      skill('longer-idle', 300, 0),
      skill('short-idle', 50, 0),
      skill('member-a', 90, 1),
      skill('member-b', 90, 0),
    ];
    const b = listingBudgets(skills, { ...options, plannedMerges: [{ umbrella: 'members', members: ['member-a', 'member-b'] }] })[
      'claude-code'
    ];
    expect(b?.advice[0]).toBe('needed: its description falls out although sessions needed it (missed 6, loaded 0)');
    expect(b?.advice[1]).toBe(`the planned umbrella members (member-a, member-b) saves about ${'- member-b\n'.length + 92} characters`);
    expect(b?.advice[2]).toMatch(/^longer-idle: never loaded; its 300-character description shortened to 200 saves 100$/);
    expect(b?.advice.join('\n')).not.toMatch(/^(used|needed|short-idle):.*shortened/m);
  });

  it('ranks nothing for shrinking without session evidence, and says so', () => {
    const b = listingBudgets([skill('a', 300), skill('b', 300)], options)['claude-code'];
    expect(b?.advice).toEqual([
      `${b!.used_chars - 400} characters over; no session loaded any skill, so which descriptions could shrink is not ranked`,
    ]);
  });

  it('says how much is still over when shrinking cannot cover it', () => {
    const b = listingBudgets([skill('a', 1_000, 1), skill('b', 1_000, 1)], options)['claude-code'];
    expect(b?.advice.at(-1)).toMatch(/^\d+ characters still over after these: fewer skills, or a larger context \(--context-tokens\)$/);
  });
});

describe('properties', () => {
  const arbSkills = fc.uniqueArray(
    fc.record({
      name: fc.stringMatching(/^[a-z]{1,8}$/),
      description: fc.string({ maxLength: 400 }),
      loaded: fc.nat(20),
    }),
    { selector: (s) => s.name, maxLength: 30 },
  );

  it('codex never lists more than its limit, and cuts a description only when the whole listing is over', () => {
    fc.assert(
      fc.property(arbSkills, fc.integer({ min: 100, max: 20_000 }), (skills, limit) => {
        const b = listingBudgets(skills, { contextTokens: limit / 0.08, clients: ['codex'] }).codex!;
        const cost = (s: ListedSkill, full: boolean) =>
          `- ${s.name}: (file: r0/${s.name}/SKILL.md)\n`.length + (full && s.description ? s.description.length + 1 : 0);
        const kept = skills.filter((s) => b.fits.includes(s.name));
        if (kept.length > 0)
          expect(skills.reduce((sum, s) => sum + cost(s, b.fits.includes(s.name)), 0)).toBeLessThanOrEqual(b.limit_chars);
        expect(b.dropped.length > 0).toBe(b.used_chars > b.limit_chars);
      }),
    );
  });

  it('every skill is either listed whole or dropped, and nothing drops when the listing fits', () => {
    fc.assert(
      fc.property(arbSkills, fc.integer({ min: 500, max: 200_000 }), (skills, tokens) => {
        for (const b of Object.values(listingBudgets(skills, { contextTokens: tokens }))) {
          expect([...b.fits, ...b.dropped].sort()).toEqual(skills.map((s) => s.name).sort());
          if (b.used_chars <= b.limit_chars) expect(b.dropped).toEqual([]);
          if (b.dropped.length > 0) expect(b.advice.length).toBeGreaterThan(0);
        }
      }),
    );
  });

  it('loading a skill more never makes claude-code drop its description', () => {
    fc.assert(
      fc.property(arbSkills, fc.nat(29), fc.integer({ min: 1, max: 50 }), (skills, pick, more) => {
        fc.pre(skills.length > 0);
        const target = skills[pick % skills.length]!;
        const before = listingBudgets(skills, { contextTokens: 20_000 })['claude-code']!;
        const bumped = skills.map((s) => (s === target ? { ...s, loaded: s.loaded + more } : s));
        const after = listingBudgets(bumped, { contextTokens: 20_000 })['claude-code']!;
        if (before.fits.includes(target.name)) expect(after.fits).toContain(target.name);
      }),
    );
  });
});
