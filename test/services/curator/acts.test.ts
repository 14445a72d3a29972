import { describe, expect, it } from 'vitest';
import { runCurate } from '../../../src/services/curator/curate.js';
import { writeProposals } from '../../../src/services/proposals/index.js';
import { git, repoWith } from '../../helpers/repo.js';
import { createAgentSkills } from '../../helpers/agent-skills.js';
import {
  migrateSessions,
  otherSessions,
  pdfSessions,
  plantedSkills,
  releaseSessions,
  typedSecret,
  writePlantedSessions,
} from './planted.js';

const day = 86_400_000;
// The planted sessions run from 2026-10-01, one a day; the skills were created a week before.
const now = new Date('2026-11-05T00:00:00Z');

async function library(): Promise<string> {
  const dir = repoWith({ 'README.md': 'notes\n' });
  await createAgentSkills(dir, plantedSkills, new Date(now.getTime() - 41 * day));
  return dir;
}

describe('the curator acts on evidence (issue #31)', () => {
  it('keeps release-cut, missed six times in other words, and proposes its description; an untouched skill still goes stale', async () => {
    const dir = await library();
    writePlantedSessions(dir, [...releaseSessions, ...migrateSessions, ...pdfSessions, ...otherSessions]);
    const run = await runCurate({ repoDir: dir, now, dryRun: true, transcripts: ['claude'] });
    expect(run.report.transitions.map((t) => [t.skill, t.to])).toEqual([['tidy-imports', 'stale']]);
    expect(run.report.skipped.find((s) => s.skill === 'release-cut')).toEqual({
      skill: 'release-cut',
      reason: 'needed',
      detail:
        '6 session(s) needed it without loading it: not idle, so not stale; its description proposal: skillgarden/describe/release-cut',
    });
    // No drafts that duplicate the skills the sessions loaded, nor the one they did by hand.
    expect(run.proposals.filter((p) => p.kind === 'new')).toEqual([]);
    const describe = run.proposals.find((p) => p.kind === 'describe');
    expect(run.proposals.filter((p) => p.kind === 'describe').map((p) => p.name)).toEqual(['release-cut']);
    expect(describe?.branch).toBe('skillgarden/describe/release-cut');
    expect(describe?.labels).toEqual(['skillgarden', 'description']);
    expect(describe?.reasons).toContain(
      "trigger counts: the old wording's words catch 0 of the 6 missed request(s); the new wording catches 6",
    );
    const skillMd = String(describe?.changes[0]?.content);
    expect(describe?.changes.map((c) => c.path)).toEqual(['skills/release-cut/SKILL.md']);
    expect(skillMd).toBe(
      plantedSkills['release-cut']?.replace(
        'description: Cut a release. Use when asked to cut a release or ship a tag.',
        'description: Cut a release. Use when asked to cut a release or ship a tag. Use when asked to publish a new version of the package to npm.',
      ),
    );
    for (const text of [describe?.message, ...(describe?.reasons ?? []), describe?.structured]) expect(text).not.toContain(typedSecret);
    expect(describe?.message).toMatch(/\n\nSkill-Action: describe\nSkill-Name: release-cut\nSkill-Actor: curator\nCurator-Run: /);
    expect(run.withdraw).toEqual(['new', 'describe']);

    // Written as one commit on its branch; declined, it is not proposed again.
    const written = await writeProposals(dir, run.proposals, { now, withdraw: run.withdraw });
    expect(written.map((w) => [w.kind, w.operation])).toEqual([['describe', 'created']]);
    expect(git(dir, 'show', '--name-only', '--format=%s', 'skillgarden/describe/release-cut').trim().split('\n')).toEqual([
      'skill(describe): release-cut — the words of 6 session(s) that needed it',
      '',
      'skills/release-cut/SKILL.md',
    ]);
    git(dir, 'branch', '-D', 'skillgarden/describe/release-cut');
    const again = await runCurate({ repoDir: dir, now, dryRun: true, transcripts: ['claude'] });
    const rewritten = await writeProposals(dir, again.proposals, { now, withdraw: again.withdraw });
    expect(rewritten.map((w) => [w.kind, w.operation])).toEqual([['describe', 'declined']]);
  });

  it('without transcripts the lifecycle is what it was: release-cut goes stale by its idle days', async () => {
    const dir = await library();
    const run = await runCurate({ repoDir: dir, now, dryRun: true });
    expect(run.report.transitions.map((t) => t.skill).sort()).toEqual(['db-migrate', 'pdf-extract', 'release-cut', 'tidy-imports']);
    expect(run.proposals.filter((p) => p.kind === 'describe')).toEqual([]);
  });
});
