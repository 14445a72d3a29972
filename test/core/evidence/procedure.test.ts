import { describe, expect, it } from 'vitest';
import {
  askedFor,
  buildCommandKey,
  didProcedure,
  listProcedureCommands,
  listTriggerWords,
  listWordKeys,
} from '../../../src/core/evidence/index.js';
import { dbMigrate, releaseCut } from '../../services/evidence/plant.js';

describe("a skill's procedure, as commands", () => {
  it.each([
    ['npm version patch', 'npm version'],
    ['npm publish --access public', 'npm publish'],
    ['npm run migrate:make add-x', 'npm run migrate:make'],
    ['pnpm exec prisma migrate dev', 'pnpm exec prisma'],
    ['npx prisma@5 migrate dev', 'npx prisma migrate'],
    ['npx knex migrate:make add-x', 'npx knex migrate:make'],
    ['npx knex migrate:latest', 'npx knex migrate:latest'],
    ['npx prisma', 'npx prisma'],
    ['npx vitest run', 'npx vitest'],
    ['npx eslint .', 'npx eslint'],
    ['python scripts/fill_form.py in.pdf', 'python fill_form.py'],
    ['python3 -m pytest -q', 'python3 -m pytest'],
    ['python', 'python'],
    ['git -C repo status', 'git'],
    ['gh release create v1.2.0', 'gh release'],
    ['ls -la', undefined],
    ['my-tool --x', undefined],
  ])('%s → %s', (detail, key) => {
    expect(buildCommandKey(detail)).toBe(key);
  });

  it('reads the distinctive commands from code blocks and inline code, leaving out what every session runs', () => {
    expect(listProcedureCommands(releaseCut)).toEqual(['npm publish', 'npm version']);
    expect(listProcedureCommands(dbMigrate)).toEqual(['npm run migrate', 'npm run migrate:make', 'psql']);
    const text =
      '---\nname: x\ndescription: y\n---\n```python\nimport os\nprint(1)\n```\n```console\n$ cd app && npm run seed # seed the db\n$ docker compose up -d \\\n    db\n```\nThen `gh pr create` and `git status`.\n';
    // `gh pr` is in nearly every session; the Python block holds no command.
    expect(listProcedureCommands(text)).toEqual(['docker compose', 'npm run seed']);
    // Two steps through one tool are two commands, enough for the miss rule (they were one, `npx knex`).
    const knex =
      '---\nname: db-migrate\ndescription: y\n---\n1. `npx knex migrate:make <name>`\n2. `npx knex migrate:latest`, then `npx vitest run`\n';
    expect(listProcedureCommands(knex)).toEqual(['npx knex migrate:latest', 'npx knex migrate:make']);
  });

  it.each([
    [2, 2, true],
    [2, 4, true],
    [2, 5, false],
    [1, 1, false],
    [3, 3, true],
  ])('%i of %i commands: did the procedure %s', (matched, commands, expected) => {
    expect(didProcedure(matched, commands)).toBe(expected);
  });
});

describe('asked for a skill in its words', () => {
  const release = listTriggerWords({
    name: 'release-cut',
    description: 'Cut a release of the package - bump the version, tag it and publish it to npm.',
  });
  const ask = (text: string) => {
    const keys = listWordKeys(text);
    return askedFor([...keys].filter((k) => release.has(k)).length, keys.size);
  };
  it.each([
    ['Publish a new version of the package to npm', true],
    ['Cut a release and publish it', true],
    ['publish to npm', false],
    ['Fix the failing parser test', false],
    ['Refactor the auth middleware, update the docs, bump the version in the changelog, rename the package folder and fix lint', false],
  ])('%j → %s', (text, expected) => {
    expect(ask(text)).toBe(expected);
  });
});
