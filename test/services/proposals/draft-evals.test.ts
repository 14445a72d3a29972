import { describe, expect, it } from 'vitest';
import { validateEvals } from '../../../src/core/evals/validate-evals.js';
import { validateTriggerQueries } from '../../../src/core/evals/validate-trigger-queries.js';
import { runCurate } from '../../../src/services/curator/curate.js';
import { commitProposalIn } from '../../../src/services/proposals/index.js';
import { git, repoWith } from '../../helpers/repo.js';
import { otherSessions, releaseSessions, typedSecret, writePlantedSessions } from '../curator/planted.js';

const now = new Date('2026-11-30T00:00:00Z');
const tidy =
  '---\nname: tidy-imports\ndescription: Sort the imports of a Python module. Use when imports are messy.\n---\n# tidy\n\nRun `isort src/`.\n';

describe('a drafted skill carries its evals, in the draft commit', () => {
  it('evals/evals.json and the trigger queries validate, come from the sessions, and hold no secret typed in a request', async () => {
    const dir = repoWith({ 'skills/tidy-imports/SKILL.md': tidy });
    writePlantedSessions(dir, [...releaseSessions, ...otherSessions]);
    const { proposals } = await runCurate({ repoDir: dir, now, dryRun: true, transcripts: ['claude'] });
    const draft = proposals.find((p) => p.kind === 'new');
    expect(draft?.name).toBe('publish-version-package');
    const files = new Map(draft?.changes.map((c) => [c.path, String(c.content)]));
    expect([...files.keys()]).toEqual([
      'skills/publish-version-package/SKILL.md',
      'skills/publish-version-package/evals/evals.json',
      'skills/publish-version-package/evals/trigger-queries.json',
    ]);
    const evalsText = files.get('skills/publish-version-package/evals/evals.json') ?? '';
    const queriesText = files.get('skills/publish-version-package/evals/trigger-queries.json') ?? '';
    expect(validateEvals({ file: 'evals.json', text: evalsText, folder: 'publish-version-package', skillFiles: new Set() })).toEqual([]);
    expect(validateTriggerQueries('trigger-queries.json', queriesText)).toEqual([]);
    const evals = JSON.parse(evalsText) as { evals: { prompt: string; expected_output: string; assertions: string[] }[] };
    expect(evals.evals.map((e) => e.prompt)).toContain('Publish a new version of the package to npm.');
    expect(evals.evals[0]?.expected_output).toBe('The new version is released.');
    expect(evals.evals[0]?.assertions).toEqual(expect.arrayContaining(['The agent runs `npm publish`.', 'The agent runs `git push`.']));
    // The commands the sessions ran, never a tool's name the draft's prose quotes (`Bash`).
    expect(evals.evals[0]?.assertions.filter((a) => a.startsWith('The agent runs'))).toEqual([
      'The agent runs `npm test`.',
      'The agent runs `npm version`.',
      'The agent runs `git push`.',
      'The agent runs `npm publish`.',
    ]);
    const queries = JSON.parse(queriesText) as { query: string; should_trigger: boolean }[];
    expect(queries.filter((q) => q.should_trigger)).toHaveLength(6);
    expect(
      queries
        .filter((q) => !q.should_trigger)
        .map((q) => q.query)
        .sort(),
    ).toEqual(otherSessions.map((s) => s.request).sort());
    for (const text of [evalsText, queriesText, draft?.message ?? '', draft?.reasons.join('\n') ?? ''])
      expect(text).not.toContain(typedSecret);
    expect(queriesText).toContain('token $GITHUB_TOKEN');
    expect(draft?.reasons.join('\n')).toMatch(/carries `evals\/evals.json` \(3 test case\(s\).*6 should-trigger, 3 should-not-trigger/);
    // Written as one commit on its branch, with the skill.
    const base = git(dir, 'rev-parse', 'HEAD').trim();
    const commit = await commitProposalIn(dir, draft!, { base, now });
    expect(git(dir, 'show', '--name-only', '--format=', commit).trim().split('\n').sort()).toEqual([...files.keys()].sort());
    expect(git(dir, 'show', `${commit}:skills/publish-version-package/evals/evals.json`)).toBe(evalsText);
  });
});
