import { readFileSync } from 'node:fs';
import { beforeAll, expect, it } from 'vitest';
import { checkSchema, knownFields, type ProfileName, type SchemaCheckInput } from '../../../src/core/schema/index.js';
import { corpusSkillsRoot, describeFullCorpus, listCorpusSkills } from '../../helpers/corpus.js';
import { frontmatterInput } from './yaml-locator.js';

interface CorpusEntry {
  relative: string;
  input: Omit<SchemaCheckInput, 'profile'>;
  data: Record<string, unknown>;
}

/** Skills with at least one finding of each `severity code`. */
function skillCounts(entries: readonly CorpusEntry[], profile: ProfileName): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of entries) {
    const findings = checkSchema({ ...entry.input, profile });
    for (const key of new Set(findings.map((f) => `${f.severity} ${f.code}`))) counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

describeFullCorpus('checkSchema on the 716 corpus skills', () => {
  let entries: CorpusEntry[] = [];

  beforeAll(() => {
    entries = listCorpusSkills(corpusSkillsRoot).map((skill) => {
      const text = readFileSync(skill.file, 'utf8');
      const yaml = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
      const input = frontmatterInput(yaml, { profile: 'portable', file: skill.relative });
      return { relative: skill.relative, input, data: input.data as Record<string, unknown> };
    });
  });

  it('reads every corpus skill', () => {
    expect(entries).toHaveLength(716);
  });

  it('under spec: 293 skills with keys outside the spec, 163 with a wrong type, 1 bad name', () => {
    expect(skillCounts(entries, 'spec')).toEqual({
      'error schema/unknown-key': 293,
      // 160 skills with non-string metadata values + 3 with allowed-tools as a list (disjoint)
      'error schema/type': 163,
      // alt-glitch__hermes-agent/optional-skills/productivity/here-now: `name: here.now`
      'error schema/pattern': 1,
    });
  });

  it('under spec, the type findings are exactly the non-string metadata values and listed allowed-tools', () => {
    const spec = knownFields('spec');
    const outside = entries.filter((e) => Object.keys(e.data).some((key) => !spec.has(key)));
    const metadata = entries.filter((e) => {
      const value = e.data.metadata;
      return value !== null && typeof value === 'object' && Object.values(value).some((v) => typeof v !== 'string');
    });
    const listedTools = entries.filter((e) => Array.isArray(e.data['allowed-tools']));
    expect([outside.length, metadata.length, listedTools.length]).toEqual([293, 160, 3]);

    const withTypeFinding = entries.filter((e) => checkSchema({ ...e.input, profile: 'spec' }).some((f) => f.code === 'schema/type'));
    const expected = new Set([...metadata, ...listedTools].map((e) => e.relative));
    expect(new Set(withTypeFinding.map((e) => e.relative))).toEqual(expected);
  });

  it('places every finding on a real line of the frontmatter', () => {
    for (const entry of entries) {
      for (const finding of checkSchema({ ...entry.input, profile: 'spec' }))
        expect(finding.line, entry.relative).toBeGreaterThanOrEqual(2);
    }
  });

  it('under portable: only real problems are errors; unknown keys are rare warnings', () => {
    expect(skillCounts(entries, 'portable')).toEqual({
      // trailofbits firebase-apk-scanner: `argument-hint: [apk-file-or-directory]` is a YAML list
      'error schema/type': 1,
      'error schema/pattern': 1,
      // trailofbits testing-handbook skills: `type: technique | fuzzer | domain`
      'warning schema/unknown-key': 14,
    });
  });

  it("under claude-code and hermes: the other dialect's keys are warnings", () => {
    expect(skillCounts(entries, 'claude-code')).toEqual({
      'warning schema/unknown-key': 284,
      'error schema/type': 1,
      'error schema/pattern': 1,
    });
    expect(skillCounts(entries, 'hermes')).toEqual({
      'warning schema/unknown-key': 23,
      'error schema/pattern': 1,
    });
  });
});
