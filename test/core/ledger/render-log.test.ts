import { describe, expect, it } from 'vitest';
import { buildLog, type LogEntry } from '../../../src/core/ledger/log-entry.js';
import { renderLogText, renderSkillList } from '../../../src/core/ledger/render-log.js';

const entry = (over: Partial<LogEntry>): LogEntry => ({
  commit: '3f9a1c2d'.padEnd(40, '0'),
  time: '2026-11-29T23:00:00Z',
  action: 'patch',
  skills: ['deploy'],
  actor: 'agent',
  source: 'background',
  run: null,
  subject: 'skill(patch): deploy — fix',
  ...over,
});

describe('renderLogText', () => {
  it('prints a header and one aligned line per entry', () => {
    expect(
      renderLogText([
        entry({}),
        entry({ action: null, actor: 'user', source: null, skills: [], subject: 'by hand', run: null }),
        entry({ action: 'archive', actor: 'curator', source: null, run: 'r1', skills: ['a', 'b'] }),
      ]),
    ).toBe(
      'commit   time                  action   actor             skills  subject\n' +
        '3f9a1c2  2026-11-29T23:00:00Z  patch    agent/background  deploy  skill(patch): deploy — fix\n' +
        '3f9a1c2  2026-11-29T23:00:00Z  -        user              -       by hand\n' +
        '3f9a1c2  2026-11-29T23:00:00Z  archive  curator           a, b    skill(patch): deploy — fix  [run r1]\n',
    );
  });

  it('bounds a row however many skills its commit touched', () => {
    const many = Array.from({ length: 700 }, (_, i) => `skill-number-${i}`);
    const lines = renderLogText([entry({ skills: many }), entry({})]).split('\n');
    expect(lines[1]).toContain('skill-number-0, skill-number-1, skill-number-2, … (+697)  skill(patch)');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(160); // was 10,000+ with every name
    expect(renderSkillList(['a', 'b', 'c'])).toBe('a, b, c');
    expect(renderSkillList(['a', 'b', 'c', 'd'])).toBe('a, b, c, … (+1)');
    expect(renderSkillList([])).toBe('-');
  });

  it('says so when there is nothing to show', () => {
    expect(renderLogText([])).toBe('No ledger entries.\n');
  });
});

describe('buildLog', () => {
  it('reads a commit without trailers as a user commit with no action', () => {
    expect(buildLog([{ oid: 'a'.repeat(40), parents: [], time: 0, message: 'Fix typo\n\nbody\n' }])).toEqual([
      {
        commit: 'a'.repeat(40),
        time: '1970-01-01T00:00:00Z',
        action: null,
        skills: [],
        actor: 'user',
        source: null,
        run: null,
        subject: 'Fix typo',
      },
    ]);
  });
});
