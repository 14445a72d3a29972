import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { profileDefName, skillSchema } from './skill-schema.js';
import type { ProfileName } from './types.js';

// One Ajv instance and one compiled validator per profile, built on first use:
// compiling costs milliseconds, validating microseconds.
let ajv: Ajv2020 | undefined;
const validators = new Map<ProfileName, ValidateFunction>();

function buildAjv(): Ajv2020 {
  // verbose: errors carry the failing (sub)schema, which the messages describe ("a list of strings").
  const instance = new Ajv2020({ allErrors: true, strict: true, verbose: true });
  instance.addSchema(skillSchema);
  return instance;
}

export function compileProfile(profile: ProfileName): ValidateFunction {
  let validate = validators.get(profile);
  if (validate === undefined) {
    ajv ??= buildAjv();
    validate = ajv.compile({ $ref: `${skillSchema.$id}#/$defs/${profileDefName(profile)}` });
    validators.set(profile, validate);
  }
  return validate;
}
