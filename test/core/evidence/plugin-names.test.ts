import { describe, expect, it } from 'vitest';
import { buildEvidenceReport, renderEvidenceText, type EvidenceSkillInput } from '../../../src/core/evidence/index.js';
import type { TranscriptSession } from '../../../src/core/patterns/types.js';

const skill = (name: string, folder?: string): EvidenceSkillInput => ({
  name,
  ...(folder === undefined ? {} : { folder }),
  description: `The ${name} skill.`,
  text: `# ${name}\n`,
});

function loads(id: string, ...skills: string[]): TranscriptSession {
  return {
    id,
    file: `${id}.jsonl`,
    format: 'claude-code',
    calls: [],
    uses: skills.map((s) => ({ skill: s, session: id })),
    requests: [],
  };
}

const now = '2026-11-01T00:00:00Z';

describe('evidence names plugin skills as list does', () => {
  it('two plugins’ setup are two rows; a load by the qualified name counts for that one, a bare shared name for neither', () => {
    const skills = [skill('alpha:setup', 'setup'), skill('beta:setup', 'setup'), skill('alpha:lint', 'lint'), skill('notes')];
    const report = buildEvidenceReport(
      [loads('s1', 'beta:setup'), loads('s2', 'beta:setup'), loads('s3', 'alpha:setup'), loads('s4', 'lint'), loads('s5', 'setup')],
      { skills, now, minSessions: 1 },
    );
    const loaded = Object.fromEntries(report.skills.map((s) => [s.name, s.loaded]));
    expect(loaded).toEqual({ 'alpha:setup': 1, 'beta:setup': 2, 'alpha:lint': 1, notes: 0 });
    // `setup` alone names two skills: not guessed, reported among what was not counted.
    expect(report.skipped.some((s) => s.skill === 'setup')).toBe(true);
  });

  it('the text collapses skills nothing touched into one line, the JSON keeps every one', () => {
    const names = Array.from({ length: 15 }, (_, i) => `quiet-${String(i).padStart(2, '0')}`);
    const report = buildEvidenceReport([loads('s1', 'busy')], {
      skills: [skill('busy'), ...names.map((n) => skill(n))],
      now,
      minSessions: 1,
    });
    expect(report.skills).toHaveLength(16);
    const text = renderEvidenceText(report);
    expect(text).toContain(
      '15 skills with no evidence either way: quiet-00, quiet-01, quiet-02, quiet-03, quiet-04, quiet-05, quiet-06, quiet-07, quiet-08, quiet-09, quiet-10, quiet-11, … (+3).',
    );
    expect(text.split('\n').filter((l) => l.startsWith('quiet-'))).toEqual([]);
    expect(text.split('\n').some((l) => l.startsWith('busy '))).toBe(true);
  });

  it('a library nothing touched says so instead of an empty table', () => {
    const text = renderEvidenceText(buildEvidenceReport([], { skills: [skill('a'), skill('b')], now, minSessions: 1 }));
    expect(text).toContain('No session loaded or missed any skill of the library.');
    expect(text).toContain('2 skills with no evidence either way: a, b.');
  });
});
