import { describe, expect, it } from 'vitest';
import { defaultConfig, parseConfig } from '../../../src/core/config/config.js';
import { emptyState, parseRecord, parseState, serializeRecord, serializeState } from '../../../src/core/config/state.js';

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

describe('patterns: in config.yaml, checked per key like scan: and consolidation:', () => {
  it('keeps valid draft limits', () => {
    const { config, findings } = parseConfig('patterns:\n  max_drafts: 2\n  min_sessions: 4\n  min_confidence: 0.5\n', 'c.yaml');
    expect(findings).toEqual([]);
    expect(config.patterns).toEqual({ max_drafts: 2, min_sessions: 4, min_confidence: 0.5 });
  });

  it.each([
    [
      'a misspelt key',
      'patterns:\n  max_draft: 2\n',
      'config/unknown-key',
      /unknown setting "patterns\.max_draft"/,
      /patterns-config\.schema\.json/,
    ],
    ['a fraction of a draft', 'patterns:\n  max_drafts: 2.5\n', 'config/invalid', /patterns\.max_drafts must be integer/, /schemas/],
    ['a pattern of one session', 'patterns:\n  min_sessions: 1\n', 'config/invalid', /patterns\.min_sessions must be >= 2/, /schemas/],
    ['a confidence over 1', 'patterns:\n  min_confidence: 30\n', 'config/invalid', /patterns\.min_confidence must be <= 1/, /schemas/],
    ['a list', 'patterns: [5]\n', 'config/invalid', /patterns must be object/, /schemas/],
  ])('reports %s, naming the key and line; the limits fall back to their defaults', (_label, text, code, message, hint) => {
    const { config, findings, invalidKeys } = parseConfig(`enabled: true\n${text}`, '.skillgarden/config.yaml');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      code,
      line: 2,
      severity: 'error',
      message: expect.stringMatching(message),
      hint: expect.stringMatching(hint),
    });
    expect(invalidKeys).toEqual(['patterns']);
    expect(config.patterns).toEqual({});
  });
});

describe('state.json', () => {
  it('round-trips the run-wide fields through serialize and parse (version 2 keeps no records in it)', () => {
    const state = { ...emptyState(), last_run_at: '2026-11-30T00:00:00.000Z', rejected_proposals: ['b', 'a', 'b'] };
    const text = serializeState({ ...state, skills: { a: { seeded_at: 'y' } } } as never);
    expect(JSON.parse(text)).toEqual({ version: 2, last_run_at: '2026-11-30T00:00:00.000Z', rejected_proposals: ['a', 'b'] });
    expect(parseState(text, 's').state).toEqual({ ...state, rejected_proposals: ['a', 'b'] });
  });

  it('reads the one-file layout (version 1) with its records', () => {
    const text = JSON.stringify({ version: 1, skills: { b: { state: 'stale', since: 'x' }, a: { seeded_at: 'y' } } });
    expect(parseState(text, 's')).toEqual({
      state: { version: 1, skills: { a: { seeded_at: 'y' }, b: { state: 'stale', since: 'x' } }, rejected_proposals: [] },
      findings: [],
    });
  });

  it('refuses a corrupt state file with an error, rather than forgetting stale marks', () => {
    expect(parseState('{"version": 1, "skills": {"a": {"state": "zombie"}}}', 's').findings[0]?.code).toBe('state/invalid');
    expect(parseState('nope', 's').findings[0]?.code).toBe('state/invalid');
    // Version 2 keeps records in their own files: a `skills` in it is a file edited by hand or by an old writer.
    expect(parseState('{"version": 2, "skills": {}}', 's').findings[0]?.code).toBe('state/invalid');
    expect(parseState('{"version": 3}', 's').findings[0]?.code).toBe('state/invalid');
  });

  it('reads a record file, and refuses a corrupt one naming its line and column', () => {
    expect(parseRecord('{\n  "state": "stale",\n  "since": "x"\n}\n', 'r.json')).toEqual({
      record: { state: 'stale', since: 'x' },
      findings: [],
    });
    expect(parseRecord('{"state": "zombie"}', 'r.json').findings[0]).toMatchObject({ code: 'state/invalid', file: 'r.json' });
    expect(parseRecord('{\n  "state": "stale",\n  oops\n}\n', 'r.json').findings[0]).toMatchObject({ file: 'r.json', line: 3, column: 3 });
    expect(serializeRecord({ seeded_at: 'y', since: 'x', state: 'stale' })).toBe(
      '{\n  "state": "stale",\n  "since": "x",\n  "seeded_at": "y"\n}\n',
    );
  });
});
