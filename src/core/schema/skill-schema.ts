import schemaJson from '../../../schemas/skill.schema.json' with { type: 'json' };
import type { ProfileName } from './types.js';

/** The parts of a JSON Schema this module reads; the file itself is the contract. */
export interface SchemaNode {
  $ref?: string;
  description?: string;
  type?: string | string[];
  enum?: unknown[];
  pattern?: string;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  required?: string[];
  [keyword: string]: unknown;
}

export interface SkillSchema extends SchemaNode {
  $id: string;
  $defs: Record<string, SchemaNode>;
}

export const skillSchema = schemaJson as unknown as SkillSchema;

export function profileDefName(profile: ProfileName): string {
  return `profile-${profile}`;
}

/** The object schema of one profile (`$defs/profile-<name>`). */
export function profileSchema(profile: ProfileName): SchemaNode {
  const node = skillSchema.$defs[profileDefName(profile)];
  // The JSON file ships with the package; a missing profile is a build defect, not user input.
  if (node === undefined) throw new Error(`schemas/skill.schema.json has no $defs/${profileDefName(profile)}`);
  return node;
}

/** Follows a local `#/$defs/...` reference; other nodes come back as they are. */
export function resolveRef(node: SchemaNode): SchemaNode {
  const ref = node.$ref;
  if (ref === undefined || !ref.startsWith('#/$defs/')) return node;
  return skillSchema.$defs[ref.slice('#/$defs/'.length)] ?? node;
}

const knownFieldsCache = new Map<ProfileName, ReadonlySet<string>>();

/** Top-level frontmatter keys the profile knows; any other key is an unknown-key finding. */
export function knownFields(profile: ProfileName): ReadonlySet<string> {
  let fields = knownFieldsCache.get(profile);
  if (fields === undefined) {
    fields = new Set(Object.keys(profileSchema(profile).properties ?? {}));
    knownFieldsCache.set(profile, fields);
  }
  return fields;
}
