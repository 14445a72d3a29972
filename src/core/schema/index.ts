export { checkSchema } from './check-schema.js';
export { knownFields, skillSchema } from './skill-schema.js';
export { isProfileName, profileNames } from './types.js';
export type { FieldPath, Position, ProfileName, SchemaCheckInput } from './types.js';
