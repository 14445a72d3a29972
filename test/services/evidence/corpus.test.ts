import { cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEvidence } from '../../../src/services/evidence/run-evidence.js';
import { corpusSkillsRoot, corpusTranscriptsRoot, hasCorpus, hasTranscriptCorpus } from '../../helpers/corpus.js';
import { git, repoWith } from '../../helpers/repo.js';

const superpowers = join(corpusSkillsRoot, 'obra__superpowers', 'skills');

describe.skipIf(!hasCorpus || !hasTranscriptCorpus)('evidence on the corpus transcripts', () => {
  it('with the library the sessions loaded from (obra/superpowers): its loads counted, the other loads named as not in the library', async () => {
    const dir = repoWith({});
    for (const name of readdirSync(superpowers)) cpSync(join(superpowers, name), join(dir, 'skills', name), { recursive: true });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'the superpowers library');
    const report = await runEvidence({ repoDir: dir, transcripts: [corpusTranscriptsRoot], now: new Date('2026-11-01T00:00:00Z') });
    expect([report.files, report.sessions, report.calls]).toEqual([45, 44, 980]);
    const touched = report.skills.filter((s) => s.loaded + s.missed > 0);
    expect(touched.map((s) => [s.name, s.offered, s.loaded, s.missed, s.trigger_rate, s.certainty])).toEqual([
      // The library's commit is dated 2026-05-28: of the 44 sessions, 26 are older, and only 18 had it.
      ['brainstorming', 18, 2, 0, null, 'low'],
      // Read in the same command as brainstorming's SKILL.md (`sed -n … brainstorming/SKILL.md && sed -n …
      // test-driven-development/SKILL.md`, a Codex rollout): one command, two loads.
      ['test-driven-development', 17, 1, 0, null, 'low'],
      ['using-superpowers', 18, 2, 0, null, 'low'],
    ]);
    expect(touched[0]?.with).toMatchObject({ sessions: 2, median_calls: 71.5, error_rate: null, ended_tests_passing: 1 });
    expect(report.skipped.filter((s) => s.skill !== undefined).map((s) => s.skill)).toEqual([
      'browser',
      'elixir:hex-docs-search',
      'handgemacht:create-beads',
      'test-command',
    ]);
    expect(JSON.stringify(report)).not.toContain(corpusTranscriptsRoot);
  });
});
