import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import listSchema from '../../schemas/list.schema.json' with { type: 'json' };
import logSchema from '../../schemas/log.schema.json' with { type: 'json' };
import validateSchema from '../../schemas/validate-report.schema.json' with { type: 'json' };
import { cli } from '../helpers/cli.js';
import { repoWith } from '../helpers/repo.js';
import { skillText } from '../helpers/tmp.js';

const ajv = new Ajv2020({ strict: false, validateFormats: false });

describe('machine-readable output matches its schema', () => {
  it.each([
    ['list', ['list', '--json'], listSchema],
    ['log', ['log', '--json'], logSchema],
    ['validate', ['validate', '--json'], validateSchema],
  ])('%s --json', async (_label, args, schema) => {
    const dir = repoWith({
      'skills/mine/SKILL.md': skillText('mine'),
      'skills/bad/SKILL.md': skillText('Bad'),
      'draft.md': skillText('theirs'),
    });
    await cli(['manage', 'create', 'theirs', '--content', 'draft.md', '--actor', 'agent', '--source', 'background'], { cwd: dir });
    await cli(['archive', 'mine'], { cwd: dir });
    const run = await cli(args, { cwd: dir });
    const validate = ajv.compile(schema);
    const output = JSON.parse(run.stdout);
    expect(validate(output), JSON.stringify(validate.errors)).toBe(true);
  });
});
