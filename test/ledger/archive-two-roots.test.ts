import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCommitMessage } from '../../src/core/ledger/trailers.js';
import { runCurator } from '../../src/services/curator/run-curator.js';
import { git, repoWith } from '../helpers/repo.js';
import { skillText } from '../helpers/tmp.js';

/*
 * Two skill roots may each hold a skill of the same name (a project's skills/ and .claude/skills/).
 * Each root has its own archive, so one curator run archives both, each into its own root's
 * `.archive/`, with nothing lost and no conflict.
 */
/** A repository with `old-one` in both roots, each created by an agent's commit; `extra` goes into the frontmatter of skills/'s, the twin the library shadows. */
function twoRoots(extra = ''): string {
  const dir = repoWith({
    '.skillgarden/config.yaml': 'skills_dir: [skills, .claude/skills]\n',
    'skills/.gitkeep': '',
    '.claude/skills/.gitkeep': '',
  });
  // `manage create` refuses a name the library already has: the twins come from an agent's commits made with git.
  for (const root of ['skills', '.claude/skills']) {
    mkdirSync(join(dir, root, 'old-one'), { recursive: true });
    writeFileSync(join(dir, root, 'old-one/SKILL.md'), skillText('old-one', root === 'skills' ? extra : '', `# old-one in ${root}\n`));
    git(dir, 'add', root);
    const trailers = {
      action: 'create' as const,
      skills: ['old-one'],
      actor: 'agent' as const,
      source: 'background' as const,
      reverts: [],
    };
    git(dir, 'commit', '-q', '-m', buildCommitMessage({ subject: `skill(create): old-one in ${root}`, trailers }));
  }
  return dir;
}

describe('a curator run archiving same-named skills of two roots', () => {
  it('leaves a twin pinned in its own frontmatter where it is', async () => {
    const dir = twoRoots('metadata:\n  pinned: true\n');
    const { report } = await runCurator({ repoDir: dir, now: new Date('2026-11-30T00:00:00Z') });
    expect(report.transitions.map((t) => `${t.skill}:${t.to}`)).toEqual(['old-one:archived']);
    expect(git(dir, 'show', '--name-status', '--format=', report.transitions[0]!.commit!).trim()).toBe(
      'R100\t.claude/skills/old-one/SKILL.md\t.claude/skills/.archive/old-one/SKILL.md',
    );
    expect(git(dir, 'show', 'HEAD:skills/old-one/SKILL.md')).toContain('pinned: true');
    expect(git(dir, 'status', '--porcelain', '--', 'skills', '.claude')).toBe('');
  });

  it('moves each into its own root archive, in one run, and git finds the repository clean', async () => {
    const dir = twoRoots();
    const { report } = await runCurator({ repoDir: dir, now: new Date('2026-11-30T00:00:00Z') });
    // The library reports the twin names (a finding); the name's one transition archives both folders, in one commit.
    expect(report.errors.map((e) => e.code)).toEqual(['library/duplicate-name']);
    expect(report.transitions.map((t) => `${t.skill}:${t.to}`)).toEqual(['old-one:archived']);
    expect(git(dir, 'show', '--name-status', '--format=', report.transitions[0]!.commit!).trim().split('\n').sort()).toEqual([
      'R100\t.claude/skills/old-one/SKILL.md\t.claude/skills/.archive/old-one/SKILL.md',
      'R100\tskills/old-one/SKILL.md\tskills/.archive/old-one/SKILL.md',
    ]);
    expect(git(dir, 'ls-files', 'skills', '.claude/skills').trim().split('\n').sort()).toEqual([
      '.claude/skills/.archive/old-one/SKILL.md',
      '.claude/skills/.gitkeep',
      'skills/.archive/old-one/SKILL.md',
      'skills/.gitkeep',
    ]);
    expect(git(dir, 'show', 'HEAD:.claude/skills/.archive/old-one/SKILL.md')).toContain('old-one in .claude/skills');
    expect(git(dir, 'show', 'HEAD:skills/.archive/old-one/SKILL.md')).toContain('old-one in skills');
    expect(git(dir, 'status', '--porcelain', '--', 'skills', '.claude')).toBe('');
    git(dir, 'fsck', '--strict', '--no-progress');
  });
});
