import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { cli } from '../../helpers/cli.js';
import { repoWith } from '../../helpers/repo.js';
import type { PlantCall, PlantSession } from '../../helpers/transcript-plant.js';

export const releaseCut = `---
name: release-cut
description: Cut a release of the package - bump the version, tag it and publish it to npm.
---
# Release cut

1. Run the tests: \`npm test\`.
2. Bump and tag:

\`\`\`bash
npm version patch
git push --follow-tags
npm publish
\`\`\`
`;

export const dbMigrate = `---
name: db-migrate
description: Write and apply a database migration with the project's migration tool, then check the schema.
---
# Database migration

\`\`\`bash
npm run migrate:make <name>
npm run migrate
psql "$DATABASE_URL" -c '\\d users'
\`\`\`
`;

export const oncallRotate = `---
name: oncall-rotate
description: Rotate the on-call schedule in PagerDuty and announce it in Slack.
---
# On-call rotation

Open PagerDuty, swap the two people, post in #oncall.
`;

/** A library made through the CLI as an agent would (so history has each creation), on 2026-01-01. */
export async function plantLibrary(skills: Record<string, string>, now = '2026-01-01T00:00:00Z'): Promise<string> {
  const dir = repoWith({ 'README.md': '# app\n' });
  for (const [name, text] of Object.entries(skills)) {
    writeFileSync(join(dir, 'draft.md'), text);
    const run = await cli(['manage', 'create', name, '--content', 'draft.md', '--actor', 'agent', '--source', 'background', '--now', now], {
      cwd: dir,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  }
  return dir;
}

const day = (n: number, hour = 9) => `2026-10-${String(n).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;

export const migrateWith: PlantCall[] = [
  { command: 'npm run migrate:make add-created-at' },
  { command: 'npm run migrate' },
  { command: 'npm test' },
  { command: 'git commit -am "add created_at"' },
];

export const migrateByHand: PlantCall[] = [
  { command: 'npm run migrate:make add-created-at', error: true },
  { command: 'npm run migrate:make add-created-at' },
  { command: 'npm run migrate', error: true },
  { command: `psql "$DATABASE_URL" -c 'select 1'` },
  { command: 'npm run migrate' },
  { command: 'npm test', error: true },
];

export const releaseByHand: PlantCall[] = [
  { command: 'npm test' },
  { command: 'npm version patch' },
  { command: 'git push --follow-tags' },
  { command: 'npm publish' },
];

export const unrelated: PlantCall[] = [
  { command: 'npm test', error: true },
  { tool: 'Edit', input: { file_path: '/work/app/src/parser.ts', old_string: 'a', new_string: 'b' } },
  { command: 'npm test' },
];

export const secret = 'ghp_Zx8Qm2Lr5Tn7Vb3Kc9Wd4Hf6Jg1Ys0Pa2Ue5';

/** The sessions of the plant, by format; each figure of the report follows from them. */
export function plantedSessions(): { claude: PlantSession[]; codex: PlantSession[] } {
  const addColumn = 'Add a created_at column to the users table';
  const publish = 'Publish a new version of the package to npm';
  const claude: PlantSession[] = [
    // db-migrate loaded 3 times here (2 more in Codex): 5 calls each, no error, tests pass, a commit.
    ...[1, 2, 11].map((d) => ({ id: `cc-db-with-${d}`, time: day(d), request: addColumn, load: 'db-migrate', calls: migrateWith })),
    // The same job by hand, 3 times here (2 more in Codex): 6 calls, 3 errors, 1 retry, failing tests, no commit.
    ...[3, 4, 12].map((d) => ({ id: `cc-db-hand-${d}`, time: day(d), request: addColumn, calls: migrateByHand })),
    // release-cut done by hand twice here (twice more in Codex), never loaded.
    ...[5, 6].map((d) => ({ id: `cc-release-hand-${d}`, time: day(d), request: 'Ship it', calls: releaseByHand })),
    // Asked for in its description's words, the procedure not done: a miss by words (one request carries a token).
    { id: 'cc-release-words-7', time: day(7), request: publish, calls: [{ command: 'git status' }, { command: 'cat package.json' }] },
    { id: 'cc-release-words-8', time: day(8), request: `${publish}, the token is ${secret}`, calls: [{ command: 'git status' }] },
    // Sessions that touch no skill; one from before the library existed; one loading a skill that never was.
    { id: 'cc-other-9', time: day(9), request: 'Fix the failing parser test', calls: unrelated },
    { id: 'cc-other-10', time: day(10), request: 'Fix the failing parser test', calls: unrelated },
    { id: 'cc-before', time: '2025-12-01T09:00:00.000Z', request: 'Fix the failing parser test', calls: unrelated },
    { id: 'cc-ghost', time: day(13), request: 'Summarise the changelog', load: 'ghost-skill', calls: [{ command: 'cat CHANGELOG.md' }] },
  ];
  const codex: PlantSession[] = [
    ...[14, 15].map((d) => ({ id: `cx-db-with-${d}`, time: day(d), request: addColumn, load: 'db-migrate', calls: migrateWith })),
    ...[16, 17].map((d) => ({ id: `cx-db-hand-${d}`, time: day(d), request: addColumn, calls: migrateByHand })),
    ...[18, 19].map((d) => ({ id: `cx-release-hand-${d}`, time: day(d), request: publish, calls: releaseByHand })),
  ];
  return { claude, codex };
}
