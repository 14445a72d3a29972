import { describe, expect, it } from 'vitest';
import type { DetectedPattern } from '../../src/core/patterns/types.js';
import { runDetect } from '../../src/services/detect.js';
import { tempDir } from '../helpers/tmp.js';
import { migrateSessions, otherSessions, pdfSessions, plantedSkills, releaseSessions, writePlantedSessions } from './curator/planted.js';
import type { Session } from '../fixtures/task-transcripts/write.js';

const existingSkills = Object.entries(plantedSkills).map(([name, text]) => ({ name, text }));
const withTools = (patterns: readonly DetectedPattern[], tool: string) => patterns.find((p) => p.tools.includes(tool));

describe('detect drafts nothing that duplicates a working skill (issue #31)', () => {
  it('a pattern whose sessions loaded a skill is covered by it, with or without the skill in the library', async () => {
    const dir = tempDir();
    writePlantedSessions(dir, [...migrateSessions, ...pdfSessions, ...otherSessions]);
    for (const existing of [existingSkills, []]) {
      const report = await runDetect({ transcripts: ['claude'], cwd: dir, existingSkills: existing });
      expect(report.patterns.filter((p) => p.draft !== undefined)).toEqual([]);
      const migrate = withTools(report.patterns, 'Bash:npx');
      expect(migrate?.coveredBy).toBe('db-migrate');
      expect(migrate?.reason).toBe('sessions loaded db-migrate (4 of its 4): a skill that works, not a new one');
      // Loaded by a read of its SKILL.md, as agents without a skill tool do.
      expect(withTools(report.patterns, 'Bash:pdftotext')?.reason).toMatch(/^sessions loaded pdf-extract \(4 of its 4\)/);
    }
    // The plain run (no skills, no loads) would draft both: the check is what stops them.
    const unloaded = [...migrateSessions, ...pdfSessions].map((s) => ({ ...s, calls: s.calls.slice(1) }));
    const bare = tempDir();
    writePlantedSessions(bare, unloaded);
    const drafts = (await runDetect({ transcripts: ['claude'], cwd: bare })).patterns.flatMap((p) => p.draft?.name ?? []);
    expect(drafts.sort()).toEqual(['add-column-users', 'say-invoice-pdf']);
  });

  it("a pattern a skill's own steps run is covered by it, the commands that only look around left out", async () => {
    const dir = tempDir();
    // `git status` before the release: the skill never says it, and it names no procedure.
    const looked = releaseSessions.map((s) => ({ ...s, calls: ['git status', ...s.calls] }));
    writePlantedSessions(dir, [...looked, ...otherSessions]);
    const covered = await runDetect({ transcripts: ['claude'], cwd: dir, existingSkills });
    const release = covered.patterns.find((p) => p.tools.join() === 'Bash:git,Bash:npm,Bash:git,Bash:npm');
    expect(release?.draft).toBeUndefined();
    expect(release?.coveredBy).toBe('release-cut');
    // The commands every task runs (`npm test`, `git push`) say nothing about which skill: the reason names the others.
    expect(release?.reason).toBe('release-cut already runs these commands (npm version, npm publish)');
    const plain = await runDetect({ transcripts: ['claude'], cwd: dir });
    expect(plain.patterns.flatMap((p) => p.draft?.name ?? [])).toEqual(['publish-version-package']);
  });

  it('a pattern that also runs what every task runs, and the skill never says, is still the skill done by hand', async () => {
    const dir = tempDir();
    // A commit and a lint after the release: release-cut says neither, and they blocked coverage when every command
    // of the pattern had to be the skill's (a copy of release-cut was drafted beside its description proposal).
    const more = releaseSessions.map((s) => ({ ...s, calls: [...s.calls, 'git commit -am "chore: release"', 'npm run lint'] }));
    writePlantedSessions(dir, [...more, ...otherSessions]);
    const report = await runDetect({ transcripts: ['claude'], cwd: dir, existingSkills });
    expect(report.patterns.flatMap((p) => p.draft?.name ?? [])).toEqual([]);
    expect(report.patterns.find((p) => p.tools.includes('Bash:npm'))?.coveredBy).toBe('release-cut');
  });

  it('a skill that runs a command every task runs covers no pattern for it (release-cut and db-migrate both run npm test)', async () => {
    const dir = tempDir();
    // Fixing a test runs `npm test`, as release-cut and db-migrate do: that is neither one's procedure.
    const fixes = ['parser', 'lexer', 'router', 'cache'].map((topic) => ({
      id: `cc-fix-${topic}`,
      request: `Fix the failing ${topic} test in the build.`,
      calls: ['npm test', ['Edit', { file_path: `src/${topic}.ts`, old_string: 'a', new_string: 'b' }], 'npm test'] as Session['calls'],
    }));
    writePlantedSessions(dir, [...fixes, ...otherSessions]);
    const report = await runDetect({ transcripts: ['claude'], cwd: dir, existingSkills });
    const fix = report.patterns.find((p) => p.tools.join() === 'Bash:npm,Edit,Bash:npm');
    expect(fix).toBeDefined();
    expect(fix?.coveredBy).toBeUndefined();
  });
});
