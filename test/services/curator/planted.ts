import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeClaudeCode, type Session } from '../../fixtures/task-transcripts/write.js';

/**
 * The planted library (issue #31): four agent-created skills and the Claude Code sessions that show
 * what each one is worth. `db-migrate` and `pdf-extract` are loaded, then their work is done; `release-cut` is
 * done by hand six times, asked for in other words; `tidy-imports` nothing touches.
 */
export const plantedSkills: Record<string, string> = {
  'db-migrate': [
    '---',
    'name: db-migrate',
    'description: Write and apply a Prisma schema migration. Use when the database schema changes.',
    '---',
    '# db-migrate',
    '',
    '1. Edit `prisma/schema.prisma`.',
    '2. Run `npx prisma migrate dev --name <change>`.',
    '3. Run `npm test`.',
    '',
  ].join('\n'),
  'pdf-extract': [
    '---',
    'name: pdf-extract',
    'description: Extract text and tables from PDF files. Use when a PDF must be read.',
    '---',
    '# pdf-extract',
    '',
    '```bash',
    'pdftotext -layout input.pdf out.txt',
    'python scripts/tables.py out.txt',
    '```',
    '',
  ].join('\n'),
  'release-cut': [
    '---',
    'name: release-cut',
    'description: Cut a release. Use when asked to cut a release or ship a tag.',
    '---',
    '# release-cut',
    '',
    '```bash',
    'npm test',
    'npm version patch',
    'git push --follow-tags',
    'npm publish',
    '```',
    '',
  ].join('\n'),
  'tidy-imports': [
    '---',
    'name: tidy-imports',
    'description: Sort the imports of a Python module. Use when imports are messy.',
    '---',
    '# tidy-imports',
    '',
    'Run `isort src/`.',
    '',
  ].join('\n'),
};

const columns = ['email_verified', 'last_login', 'avatar_url', 'plan_tier'];
const invoices = ['march', 'april', 'may', 'june'];

/** Sessions that loaded `db-migrate`, then did its work: the issue's `add-column-users` duplicate. */
export const migrateSessions: Session[] = columns.map((column, n) => ({
  id: `cc-migrate-${n}`,
  request: `Add a column ${column} to the users table.`,
  calls: [
    ['Skill', { skill: 'db-migrate' }],
    ['Read', { file_path: 'prisma/schema.prisma' }],
    ['Edit', { file_path: 'prisma/schema.prisma', old_string: 'a', new_string: 'b' }],
    `npx prisma migrate dev --name add_${column}`,
    'npm test',
  ],
}));

/** Sessions that read `pdf-extract`'s SKILL.md, then did its work: the issue's `invoice-pdf-say` duplicate. */
export const pdfSessions: Session[] = invoices.map((month, n) => ({
  id: `cc-pdf-${n}`,
  request: `Say what the ${month} invoice PDF totals are.`,
  calls: [
    ['Read', { file_path: '.claude/skills/pdf-extract/SKILL.md' }],
    `pdftotext -layout invoices/${month}.pdf /tmp/${month}.txt`,
    `python scripts/tables.py /tmp/${month}.txt`,
  ],
}));

/** A secret a person typed into a request: nothing written from the sessions may hold it. */
export const typedSecret = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

/** Six sessions that did `release-cut`'s procedure by hand, asked for in other words. */
export const releaseSessions: Session[] = [
  'Publish a new version of the package to npm.',
  'Publish a new version of the package to npm, the fix is merged.',
  'Can you publish a new version of the package to npm?',
  'Please publish a new version of the package to npm today.',
  `Publish a new version of the package to npm, token ${typedSecret}.`,
  'Publish a new version of the package to npm for the customers.',
].map((request, n) => ({
  id: `cc-release-${n}`,
  request,
  calls: ['npm test', n % 2 === 0 ? 'npm version patch' : 'npm version minor', 'git push --follow-tags', 'npm publish'],
}));

/** Unrelated sessions: a look around, nothing to draft, nothing to miss. */
export const otherSessions: Session[] = ['config', 'router', 'cache'].map((topic) => ({
  id: `cc-look-${topic}`,
  request: `Where is the ${topic} set up? Just explain it.`,
  calls: [
    ['Glob', { pattern: '**/*.ts' }],
    ['Read', { file_path: `src/${topic}.ts` }],
  ],
}));

/** Writes the planted sessions as Claude Code transcripts under `dir/claude` (day 0 is 2026-10-01). */
export function writePlantedSessions(dir: string, sessions: readonly Session[]): string {
  const root = join(dir, 'claude');
  mkdirSync(root, { recursive: true });
  writeClaudeCode(root, sessions);
  return root;
}
