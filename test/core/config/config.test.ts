import { describe, expect, it } from 'vitest';
import { defaultConfig, parseConfig } from '../../../src/core/config/config.js';
import { emptyState, parseState, serializeState } from '../../../src/core/config/state.js';

describe('parseConfig', () => {
  it('applies the defaults of DESIGN §6 to an empty file', () => {
    expect(parseConfig('', 'c.yaml')).toEqual({ config: defaultConfig, findings: [], invalidKeys: [] });
    expect(defaultConfig).toMatchObject({
      interval_hours: 168,
      min_idle_hours: 2,
      stale_after_days: 30,
      archive_after_days: 90,
      consolidate: false,
      prune_bundled: true,
      protected: ['plan'],
    });
  });

  it('keeps the values it is given', () => {
    const { config } = parseConfig('stale_after_days: 14\nreferences: ["cron/*.yaml"]\n', 'c.yaml');
    expect(config).toMatchObject({ stale_after_days: 14, archive_after_days: 90, references: ['cron/*.yaml'] });
  });

  it.each([
    ['an unknown key', 'stale_days: 3\n', 'config/unknown-key', 1],
    ['a wrong type', 'enabled: yes please\n', 'config/invalid', 1],
    ['a number below its minimum', '\ninterval_hours: 0\n', 'config/invalid', 2],
    ['archive before stale', 'stale_after_days: 60\narchive_after_days: 30\n', 'config/invalid', 2],
    ['broken YAML (reported where the parser gives up)', 'protected: [plan\n', 'config/yaml-syntax', 2],
  ])('reports %s naming the key and line, never falling back silently', (_label, text, code, line) => {
    const { findings } = parseConfig(text, '.skillgarden/config.yaml');
    expect(findings[0]).toMatchObject({ code, line, file: '.skillgarden/config.yaml', severity: 'error' });
  });
});

describe('state.json', () => {
  it('round-trips through serialize and parse', () => {
    const state = {
      ...emptyState(),
      last_run_at: '2026-11-30T00:00:00.000Z',
      skills: { b: { state: 'stale' as const, since: 'x' }, a: { seeded_at: 'y' } },
    };
    const text = serializeState(state);
    expect(Object.keys(JSON.parse(text).skills)).toEqual(['a', 'b']);
    expect(parseState(text, 's').state).toEqual({ ...state, skills: { a: { seeded_at: 'y' }, b: { state: 'stale', since: 'x' } } });
  });

  it('refuses a corrupt state file with an error, rather than forgetting stale marks', () => {
    expect(parseState('{"version": 1, "skills": {"a": {"state": "zombie"}}}', 's').findings[0]?.code).toBe('state/invalid');
    expect(parseState('nope', 's').findings[0]?.code).toBe('state/invalid');
  });
});
