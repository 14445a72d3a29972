import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OutcomeFigures } from '../../../src/core/evidence/index.js';
import { runEvidence } from '../../../src/services/evidence/run-evidence.js';
import { cli } from '../../helpers/cli.js';
import { git } from '../../helpers/repo.js';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { plantSessions, type PlantSession } from '../../helpers/transcript-plant.js';
import { dbMigrate, oncallRotate, plantLibrary, plantedSessions, releaseCut, secret } from './plant.js';

const now = new Date('2026-11-01T00:00:00Z');
const empty: OutcomeFigures = {
  sessions: 0,
  median_calls: null,
  error_rate: null,
  median_retries: null,
  ended_tests_passing: 0,
  ended_commit: 0,
};

function transcriptsOf(sessions: { claude: PlantSession[]; codex: PlantSession[] }): string {
  const root = tempDir('sg-evidence-transcripts-');
  plantSessions(root, 'claude-code', sessions.claude);
  plantSessions(root, 'codex', sessions.codex);
  return root;
}

describe('runEvidence on planted Claude Code and Codex sessions', () => {
  it('gives back exactly the plant: a skill missed 6 times, one loaded 5 times that does better than by hand, one nothing touches', async () => {
    const dir = await plantLibrary({ 'release-cut': releaseCut, 'db-migrate': dbMigrate, 'oncall-rotate': oncallRotate });
    const patch = ['manage', 'patch', 'db-migrate', '--old', 'then check the schema', '--new', 'then check the schema with psql'];
    expect((await cli([...patch, '--actor', 'agent', '--now', '2026-10-10T00:00:00Z'], { cwd: dir })).code).toBe(0);
    const root = transcriptsOf(plantedSessions());
    writeFileSync(join(root, 'notes.jsonl'), '{"foo":1}\n');
    const report = await runEvidence({ repoDir: dir, transcripts: [root], now });
    const [db, oncall, release] = report.skills;
    expect({ ...report, skills: report.skills.map((s) => s.name) }).toEqual({
      now: '2026-11-01T00:00:00.000Z',
      sessions: 20,
      calls: 85,
      files: 21,
      min_sessions: 5,
      skills: ['db-migrate', 'oncall-rotate', 'release-cut'],
      budget: {
        'claude-code': expect.objectContaining({ dropped: [] }),
        codex: expect.objectContaining({ dropped: [] }),
        'gemini-cli': expect.objectContaining({ dropped: [] }),
      },
      skipped: [
        { file: 'notes.jsonl', reason: 'lines of no known transcript format', count: 1 },
        { skill: 'ghost-skill', reason: 'loaded, but not in the library nor its history', count: 1 },
      ],
    });
    const withIt = { sessions: 5, median_calls: 5, error_rate: 0, median_retries: 0, ended_tests_passing: 5, ended_commit: 5 };
    const byHand = { sessions: 5, median_calls: 6, error_rate: 0.5, median_retries: 1, ended_tests_passing: 0, ended_commit: 0 };
    expect({ ...db, missed_sessions: db?.missed_sessions.map((m) => `${m.session} ${m.by}`) }).toEqual({
      name: 'db-migrate',
      provenance: 'agent',
      offered: 19,
      loaded: 5,
      missed: 5,
      trigger_rate: 0.5,
      certainty: 'enough',
      with: withIt,
      without: byHand,
      missed_sessions: [
        'cx-db-hand-17 procedure',
        'cx-db-hand-16 procedure',
        'cc-db-hand-12 procedure',
        'cc-db-hand-4 procedure',
        'cc-db-hand-3 procedure',
      ],
      after_patch: {
        patched_at: '2026-10-10T00:00:00Z',
        loaded_before: 2,
        loaded_after: 3,
        missed_before: 2,
        missed_after: 3,
        with_after: { ...withIt, sessions: 3, error_rate: null, ended_tests_passing: 3, ended_commit: 3 },
      },
    });
    expect(oncall).toEqual({
      name: 'oncall-rotate',
      provenance: 'agent',
      offered: 19,
      loaded: 0,
      missed: 0,
      trigger_rate: null,
      certainty: 'none',
      with: empty,
      without: empty,
      missed_sessions: [],
    });
    expect(release).toEqual({
      name: 'release-cut',
      provenance: 'agent',
      offered: 19,
      loaded: 0,
      missed: 6,
      trigger_rate: 0,
      certainty: 'enough',
      with: empty,
      without: { sessions: 4, median_calls: 4, error_rate: null, median_retries: 0, ended_tests_passing: 4, ended_commit: 0 },
      missed_sessions: [
        [
          'cx-release-hand-19',
          'codex/rollout-cx-release-hand-19.jsonl',
          'procedure',
          'Publish a new version of the package to npm',
          '2026-10-19T09:00:02.000Z',
        ],
        [
          'cx-release-hand-18',
          'codex/rollout-cx-release-hand-18.jsonl',
          'procedure',
          'Publish a new version of the package to npm',
          '2026-10-18T09:00:02.000Z',
        ],
        [
          'cc-release-words-8',
          'claude/cc-release-words-8.jsonl',
          'words',
          'Publish a new version of the package to npm, the token is $GITHUB_TOKEN',
          '2026-10-08T09:00:01.000Z',
        ],
        [
          'cc-release-words-7',
          'claude/cc-release-words-7.jsonl',
          'words',
          'Publish a new version of the package to npm',
          '2026-10-07T09:00:01.000Z',
        ],
        ['cc-release-hand-6', 'claude/cc-release-hand-6.jsonl', 'procedure', 'Ship it', '2026-10-06T09:00:01.000Z'],
        ['cc-release-hand-5', 'claude/cc-release-hand-5.jsonl', 'procedure', 'Ship it', '2026-10-05T09:00:01.000Z'],
      ].map(([session, file, by, request, time]) => ({ session, file, by, request, time })),
    });
    // Nothing private: the token typed in a request, and the transcripts' absolute folder, appear nowhere.
    const json = JSON.stringify(report);
    expect(json).not.toContain(secret);
    expect(json).not.toContain(root);
  });

  it('--since leaves earlier sessions out and says how many; min_sessions sets where a rate stands', async () => {
    const dir = await plantLibrary({ 'release-cut': releaseCut, 'db-migrate': dbMigrate });
    const root = transcriptsOf(plantedSessions());
    const report = await runEvidence({ repoDir: dir, transcripts: [root], now, since: '2026-10-10T00:00:00Z', minSessions: 2 });
    expect(report.sessions).toBe(10);
    expect(report.skipped).toContainEqual({ reason: 'sessions before --since', count: 10 });
    const db = report.skills.find((s) => s.name === 'db-migrate');
    expect([db?.loaded, db?.missed, db?.trigger_rate, db?.certainty]).toEqual([3, 3, 0.5, 'enough']);
    const release = await runEvidence({ repoDir: dir, transcripts: [root], now, since: '2026-10-18T12:00:00Z', minSessions: 2 });
    expect(release.skills.find((s) => s.name === 'release-cut')).toMatchObject({ missed: 1, trigger_rate: null, certainty: 'low' });
  });

  it('a skill renamed (its SKILL.md moved, then its name edited) keeps the evidence of its old name; a merged skill gives its own to the umbrella', async () => {
    const dir = await plantLibrary({ 'db-migrate': dbMigrate, 'release-cut': releaseCut });
    git(dir, 'mv', 'skills/db-migrate', 'skills/migrate-db');
    git(dir, 'commit', '-qm', 'rename db-migrate');
    writeFileSync(join(dir, 'skills/migrate-db/SKILL.md'), dbMigrate.replace('name: db-migrate', 'name: migrate-db'));
    git(dir, 'commit', '-qam', 'its name too');
    // The curator's merge: the umbrella `ship` absorbs release-cut, archived in the same commit.
    mkdirSync(join(dir, 'skills/.archive'));
    git(dir, 'mv', 'skills/release-cut', 'skills/.archive/release-cut');
    writeTree(dir, { 'skills/ship/SKILL.md': releaseCut.replace('name: release-cut', 'name: ship') });
    git(dir, 'add', '-A');
    const trailers = 'Skill-Action: merge\nSkill-Name: ship\nSkill-Name: release-cut\nSkill-Actor: curator';
    git(dir, 'commit', '-qm', `skill(merge): ship absorbs release-cut\n\n${trailers}`);
    const sessions = plantedSessions();
    sessions.claude.push({
      id: 'cc-release-loaded',
      time: '2026-10-20T09:00:00.000Z',
      load: 'release-cut',
      calls: [{ command: 'npm publish' }],
    });
    const root = transcriptsOf(sessions);
    const report = await runEvidence({ repoDir: dir, transcripts: [root], now });
    expect(report.skills.map((s) => [s.name, s.offered, s.loaded, s.missed])).toEqual([
      ['migrate-db', 20, 5, 5],
      ['ship', 20, 1, 6],
    ]);
    expect(report.skipped.filter((s) => s.skill !== undefined)).toEqual([
      { skill: 'ghost-skill', reason: 'loaded, but not in the library nor its history', count: 1 },
    ]);
  });
});
