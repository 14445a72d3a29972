import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildReminder, buildToolDescription, planIndex, renderIndexLine } from '../../../src/core/registry/index.js';
import { entry } from './fixtures.js';

const now = new Date('2026-11-30T00:00:00Z');

describe('planIndex', () => {
  const entries = [
    entry('alpha'),
    entry('hidden-from-model', { modelInvocable: false }),
    entry('hidden-from-user', { userInvocable: false }),
    entry('conditional', { paths: ['src/**/*.ts'] }),
    entry('popular'),
    entry('stale-user'),
  ];
  const totals = new Map([
    ['popular', { use_count: 9, last_used_at: '2026-11-29T23:00:00Z' }],
    ['stale-user', { use_count: 9, last_used_at: '2026-10-01T00:00:00Z' }],
  ]);

  it('keeps invocable, awake, active skills, best score first', () => {
    const names = planIndex({ entries, totals, now, awake: new Set() }).map((e) => e.name);
    expect(names).toEqual(['popular', 'alpha']);
  });

  it('lists a conditional skill once it is awake', () => {
    const names = planIndex({ entries, totals, now, awake: new Set(['conditional']) }).map((e) => e.name);
    expect(names).toEqual(['popular', 'alpha', 'conditional']);
  });
});

describe('buildReminder', () => {
  it('lists name, argument hint, description and when_to_use', () => {
    const text = buildReminder([entry('deploy', { argumentHint: '[env]', whenToUse: 'When shipping.' })]);
    expect(text).toMatch(/^<system-reminder>\n/);
    expect(text).toMatch(/<\/system-reminder>$/);
    expect(text).toContain('- deploy [env]: Does deploy things. — When shipping.\n');
  });

  it('truncates a long description with an ellipsis', () => {
    const line = renderIndexLine(entry('long', { description: 'x'.repeat(1000) }), 250);
    expect(line).toBe(`- long: ${'x'.repeat(249)}…\n`);
  });

  it('drops whole entries past the budget and says how many it shows', () => {
    const entries = Array.from({ length: 100 }, (_, i) => entry(`skill-${i}`));
    const text = buildReminder(entries, { budgetChars: 1_000 });
    const shown = text.split('\n').filter((l) => l.startsWith('- ')).length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(100);
    expect(text).toContain(`<!-- Showing ${shown} of 100 skills`);
  });

  it('never exceeds the budget (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 400 }), { maxLength: 40 }),
        fc.integer({ min: 0, max: 5_000 }),
        (descriptions, budget) => {
          const text = buildReminder(
            descriptions.map((d, i) => entry(`s${i}`, { description: d })),
            { budgetChars: budget },
          );
          expect(text.length).toBeLessThanOrEqual(budget);
        },
      ),
    );
  });

  it('has no note when everything fits', () => {
    expect(buildReminder([entry('a')])).not.toContain('Showing');
  });
});

describe('buildToolDescription', () => {
  it('explains the tool and lists the skills', () => {
    const text = buildToolDescription([entry('deploy')]);
    expect(text).toContain('Load a skill');
    expect(text).toContain('- deploy: Does deploy things.');
    expect(text).not.toContain('<system-reminder>');
  });
});
