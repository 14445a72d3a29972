import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { exportName, generatedValidators } from '../../../scripts/generate-validators.js';
import configSchema from '../../../schemas/config.schema.json' with { type: 'json' };
import consolidationSchema from '../../../schemas/consolidation-config.schema.json' with { type: 'json' };
import patternsSchema from '../../../schemas/patterns-config.schema.json' with { type: 'json' };
import scanSchema from '../../../schemas/scan-config.schema.json' with { type: 'json' };
import stateSchema from '../../../schemas/state.schema.json' with { type: 'json' };
import { stateAjvOptions } from '../../../src/core/config/state-ajv-options.js';
import * as generatedState from '../../../src/core/config/state-validator.generated.js';
import { configAjvOptions } from '../../../src/core/config/config-ajv-options.js';
import { ajvOptions } from '../../../src/core/schema/ajv-options.js';
import { compileProfile } from '../../../src/core/schema/compile-profile.js';
import { profileDefName, skillSchema } from '../../../src/core/schema/skill-schema.js';
import { profileNames, type ProfileName } from '../../../src/core/schema/types.js';
import * as generatedConfig from '../../../src/core/config/config-validator.generated.js';
import { hasCorpus, listCorpusSkills } from '../../helpers/corpus.js';

// The plain path: ajv compiling the schema at run time, as the CLI did before the standalone code.
const ajv = new Ajv2020({ ...ajvOptions });
ajv.addSchema(skillSchema);
const plain = new Map<ProfileName, ValidateFunction>(
  profileNames.map((p) => [p, ajv.compile({ $ref: `${skillSchema.$id}#/$defs/${profileDefName(p)}` })]),
);
const plainConfig = new Ajv2020({ ...configAjvOptions })
  .addSchema(scanSchema)
  .addSchema(consolidationSchema)
  .addSchema(patternsSchema)
  .compile(configSchema);

const plainState = new Ajv2020({ ...stateAjvOptions }).compile(stateSchema);

/** Both validators' verdict and errors (with the failing schemas, as `verbose` gives them) on one value. */
function compare(fast: ValidateFunction, slow: ValidateFunction, data: unknown): void {
  const fastValid = fast(data);
  const slowValid = slow(data);
  expect({ valid: fastValid, errors: fast.errors ?? null }).toEqual({ valid: slowValid, errors: slow.errors ?? null });
}

const fields = Object.keys(skillSchema.$defs[profileDefName('portable')]?.properties ?? {});
const configKeys = Object.keys(configSchema.properties);
/** Frontmatter-shaped values: known keys (and a few unknown ones) with values of every JSON shape. */
const frontmatter = (keys: readonly string[]) =>
  fc.dictionary(fc.oneof(fc.constantFrom(...keys, 'x-unknown', 'metadata'), fc.string({ maxLength: 6 })), fc.jsonValue({ maxDepth: 3 }), {
    maxKeys: 8,
  });

describe('the generated validators', () => {
  it.each(generatedValidators.map((g) => [g.file.split('/').slice(-2).join('/'), g] as const))(
    '%s is what scripts/generate-validators.ts makes from schemas/ today (run `npm run generate:validators` if not)',
    (_, generated) => {
      expect(readFileSync(generated.file, 'utf8')).toBe(generated.source());
    },
  );

  it('export one validator per profile', () => {
    for (const profile of profileNames) expect(typeof compileProfile(profile)).toBe('function');
    expect(profileNames.map(exportName)).toEqual(['portable', 'spec', 'claude_code', 'hermes', 'agent_plugins']);
  });

  it('agree with ajv compiling the schema at run time on random frontmatter, for every profile', () => {
    fc.assert(
      fc.property(fc.constantFrom(...profileNames), fc.oneof(frontmatter(fields), fc.jsonValue({ maxDepth: 2 })), (profile, data) => {
        compare(compileProfile(profile), plain.get(profile) as ValidateFunction, data);
      }),
      { numRuns: 2000 },
    );
  });

  it('agree with ajv on random config files', () => {
    fc.assert(
      fc.property(fc.oneof(frontmatter(configKeys), fc.jsonValue({ maxDepth: 2 })), (data) => {
        compare(generatedConfig.config as unknown as ValidateFunction, plainConfig, data);
      }),
      { numRuns: 2000 },
    );
  });

  it('agree with ajv on random state files', () => {
    const time = fc.constantFrom('2026-11-30T00:00:00Z', 'yesterday', '');
    const record = fc.dictionary(
      fc.constantFrom('state', 'since', 'seeded_at', 'pinned', 'x-unknown'),
      fc.oneof(fc.constantFrom('active', 'stale', 'archived'), time, fc.jsonValue({ maxDepth: 1 })),
      { maxKeys: 4 },
    );
    const state = fc.record(
      {
        version: fc.oneof(fc.constant(1), fc.jsonValue({ maxDepth: 0 })),
        last_run_at: time,
        last_run_id: fc.oneof(fc.string({ maxLength: 6 }), fc.integer()),
        skills: fc.oneof(
          fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(record, fc.jsonValue({ maxDepth: 1 })), { maxKeys: 3 }),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        rejected_proposals: fc.oneof(
          fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.integer()), { maxLength: 3 }),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        extra: fc.jsonValue({ maxDepth: 1 }),
      },
      { requiredKeys: [] },
    );
    let valid = 0;
    fc.assert(
      fc.property(fc.oneof(state, fc.jsonValue({ maxDepth: 2 })), (data) => {
        compare(generatedState.state as unknown as ValidateFunction, plainState, data);
        if (plainState(data)) valid += 1;
      }),
      { numRuns: 2000 },
    );
    // Both verdicts were exercised, not only rejections.
    expect(valid).toBeGreaterThan(0);
  });

  it('agree with ajv on every corpus frontmatter, for every profile', () => {
    const skills = listCorpusSkills();
    // 716 in the full corpus, 18 in the fixture set it falls back to.
    expect(skills.length).toBeGreaterThan(hasCorpus ? 700 : 15);
    let invalid = 0;
    for (const skill of skills) {
      const yaml = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(skill.file, 'utf8'))?.[1];
      if (yaml === undefined) continue;
      let data: unknown;
      try {
        data = parse(yaml, { maxAliasCount: 50 });
      } catch {
        continue;
      }
      for (const profile of profileNames) {
        compare(compileProfile(profile), plain.get(profile) as ValidateFunction, data);
        if (!(plain.get(profile) as ValidateFunction)(data)) invalid += 1;
      }
    }
    // The comparison covered failing frontmatter too, not only valid ones.
    expect(invalid).toBeGreaterThan(0);
  });
});
