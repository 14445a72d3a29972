import type { ValidateFunction } from 'ajv/dist/2020.js';
import * as generated from './profile-validators.generated.js';
import type { ProfileName } from './types.js';

// The validators are ajv standalone code made at build time (scripts/generate-validators.ts):
// importing ajv and compiling a profile at start-up cost 0.5–0.7 s per process.
const validators: Record<ProfileName, ValidateFunction> = {
  portable: generated.portable as unknown as ValidateFunction,
  spec: generated.spec as unknown as ValidateFunction,
  'claude-code': generated.claude_code as unknown as ValidateFunction,
  hermes: generated.hermes as unknown as ValidateFunction,
  'agent-plugins': generated.agent_plugins as unknown as ValidateFunction,
};

export function compileProfile(profile: ProfileName): ValidateFunction {
  return validators[profile];
}
