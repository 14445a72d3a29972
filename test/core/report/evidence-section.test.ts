import { describe, expect, it } from 'vitest';
import { listingBudgets } from '../../../src/core/evidence/budget.js';
import type { EvidenceReport, OutcomeFigures, SkillEvidence } from '../../../src/core/evidence/types.js';
import { renderEvidenceSection } from '../../../src/core/report/evidence-section.js';

const none: OutcomeFigures = {
  sessions: 0,
  median_calls: null,
  error_rate: null,
  median_retries: null,
  ended_tests_passing: 0,
  ended_commit: 0,
};

function skill(name: string, loaded: number, missed: number, extra: Partial<SkillEvidence> = {}): SkillEvidence {
  const total = loaded + missed;
  return {
    name,
    offered: total + 2,
    loaded,
    missed,
    trigger_rate: total >= 3 ? loaded / total : null,
    certainty: total === 0 ? 'none' : total >= 3 ? 'enough' : 'low',
    with: none,
    without: none,
    missed_sessions: [],
    ...extra,
  };
}

function report(skills: SkillEvidence[], extra: Partial<EvidenceReport> = {}): EvidenceReport {
  return { now: '2026-12-01T00:00:00Z', sessions: 20, calls: 400, files: 20, min_sessions: 3, skills, budget: {}, skipped: [], ...extra };
}

/** The lines of the section's table (header and separator dropped), as cells. */
function tableRows(text: string): string[][] {
  const table = text.split('\n').filter((l) => l.startsWith('| `'));
  return table.map((l) =>
    l
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim()),
  );
}

describe('renderEvidenceSection', () => {
  const skills = [
    skill('db-migrate', 9, 0),
    skill('release-cut', 1, 6, {
      with: { ...none, sessions: 1, median_calls: 8 },
      without: { sessions: 6, median_calls: 31, error_rate: 0.12, median_retries: 1, ended_tests_passing: 4, ended_commit: 5 },
    }),
    skill('pdf-extract', 2, 2),
    skill('rarely', 1, 1),
    skill('untouched', 0, 0),
  ];

  it('ranks the most missed first, then the lowest trigger rate, with the counts beside every rate', () => {
    const rows = tableRows(renderEvidenceSection(report(skills)));
    expect(rows.map((r) => r[0])).toEqual(['`release-cut`', '`pdf-extract`', '`rarely`', '`db-migrate`']);
    expect(rows[0]?.slice(1, 5)).toEqual(['9', '1', '6', '14% (1 of 7)']);
    expect(rows[1]?.[4]).toBe('50% (2 of 4)');
    expect(rows[3]?.[4]).toBe('100% (9 of 9)');
  });

  it('marks thin figures low instead of giving a rate', () => {
    const rows = tableRows(renderEvidenceSection(report(skills)));
    expect(rows[2]?.[4]).toBe('*low* (1 of 2)');
    // One session with it: only its count; six without: the figures, each with what it stands on.
    expect(rows[0]?.[5]).toBe('*low* (1 session(s))');
    expect(rows[0]?.[6]).toBe('6 sessions, median 31 calls, 12% errors, tests passing at the end 4 of 6');
    expect(rows[3]?.[5]).toBe('—');
  });

  it('says how many skills nothing touched and what the figures stand on', () => {
    const text = renderEvidenceSection(report(skills, { since: '2026-11-01T00:00:00Z' }));
    expect(text).toContain('20 session(s), 400 tool call(s) in 20 file(s) since 2026-11-01, as of 2026-12-01.');
    expect(text).toContain('1 skill(s) no session loaded or missed.');
  });

  it('charts loaded under missed as stacked bars, in the order of the table', () => {
    const text = renderEvidenceSection(report(skills));
    const chart = /```mermaid\n([\s\S]*?)\n```/.exec(text)?.[1];
    expect(chart).toBe(
      [
        'xychart-beta',
        '  title "Sessions per skill: loaded (lower bar) and missed (upper bar)"',
        '  x-axis ["release-cut", "pdf-extract", "rarely", "db-migrate"]',
        '  y-axis "sessions" 0 --> 9',
        '  bar [7, 4, 2, 9]',
        '  bar [1, 2, 1, 9]',
      ].join('\n'),
    );
  });

  it('keeps a hostile name from breaking the table, the chart or the fence', () => {
    const name = 'x"]|`\n```\n@team <b>';
    const text = renderEvidenceSection(report([skill(name, 3, 3)]));
    const chart = /```mermaid\n([\s\S]*?)\n```/.exec(text)?.[1] ?? '';
    expect(chart.split('\n')).toHaveLength(6);
    expect(chart).toContain('x-axis ["x__________team _b_"]');
    expect(tableRows(text)[0]).toHaveLength(7);
    // A fence opens only at the start of a line: the name's backticks stay inside its code span.
    expect(text.split('\n').filter((l) => l.startsWith('```'))).toEqual(['```mermaid', '```']);
  });

  it('shows each client budget, the descriptions that fall out and the advice', () => {
    const listed = ['a', 'b', 'c'].map((n, i) => ({ name: n, description: 'd'.repeat(300), loaded: i }));
    const budget = listingBudgets(listed, { contextTokens: 10_000 });
    const text = renderEvidenceSection(report(skills, { budget }));
    expect(text).toContain('| Claude Code | 400 | 918 (230% of it) | 2: `b`, `a` |');
    expect(text).toContain('| Gemini CLI | 40000 | ');
    expect(text).toContain("What would bring the library within Claude Code's budget:");
    expect(text).toContain('- a: never loaded; its 300-character description shortened to 200 saves 100');
  });

  it('lists the input it did not count, with the reasons', () => {
    const skipped = [
      { file: 'logs/x.txt', reason: 'not a recognized transcript format', count: 1 },
      { skill: 'gone', reason: 'named in sessions but not in the library', count: 4 },
    ];
    const text = renderEvidenceSection(report([], { skipped }));
    expect(text).toContain('No session loaded or missed any skill of the library.');
    expect(text).toContain('- 1 × `logs/x.txt`: not a recognized transcript format');
    expect(text).toContain('- 4 × `gone`: named in sessions but not in the library');
    expect(text).not.toContain('```mermaid');
  });
});
