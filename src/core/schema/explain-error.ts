import type { ErrorObject } from 'ajv/dist/2020.js';
import { describeExpected, joinWords, slugify } from './describe-schema.js';
import { pointerToPath, valueAt } from './field-path.js';
import { typeHint, unknownKeyHint } from './hints.js';
import { describeValue, renderPath, renderValue } from './render-value.js';
import type { SchemaNode } from './skill-schema.js';
import type { FieldPath, ProfileName } from './types.js';

/** One schema problem, before it is placed in the file. */
export interface Problem {
  code: string;
  path: FieldPath;
  /** Which position to report: the key (unknown, missing) or the value (wrong type, bad value). */
  anchor: 'key' | 'value';
  message: string;
  hint: string;
}

export interface ExplainContext {
  profile: ProfileName;
  data: unknown;
}

const code = (keyword: string): string => `schema/${keyword.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
const quoted = (value: unknown): string => `\`${renderValue(value)}\``;

export function explainError(error: ErrorObject, context: ExplainContext): Problem {
  const path = pointerToPath(error.instancePath, context.data);
  const value = valueAt(context.data, path);
  const label = `\`${renderPath(path)}\``;
  const parent = error.parentSchema as SchemaNode | undefined;
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String((error.params as { additionalProperty: string }).additionalProperty);
      const keyPath = [...path, key];
      const known = Object.keys(parent?.properties ?? {});
      return {
        code: 'schema/unknown-key',
        path: keyPath,
        anchor: 'key',
        message: `Unknown key \`${renderPath(keyPath)}\`: the ${context.profile} profile does not define it.`,
        hint: unknownKeyHint({ key, parentPath: path, known, profile: context.profile }),
      };
    }
    case 'required': {
      const missing = String((error.params as { missingProperty: string }).missingProperty);
      return {
        code: 'schema/required',
        path,
        anchor: 'key',
        message: `${path.length === 0 ? 'The frontmatter' : label} has no \`${missing}\`.`,
        hint: requiredHint(missing, path),
      };
    }
    case 'type': {
      const expected = describeExpected(parent);
      return {
        code: 'schema/type',
        path,
        anchor: 'value',
        message: `${label} must be ${expected}, got ${describeValue(value)}: ${quoted(value)}.`,
        hint: typeHint({ path, value, expected, profile: context.profile }),
      };
    }
    case 'enum':
    case 'const': {
      const allowed = (parent?.enum ?? [parent?.const]).map(String);
      return {
        code: 'schema/enum',
        path,
        anchor: 'value',
        message: `${label} must be ${joinWords(allowed.map((v) => `\`${v}\``), 'or')}, got ${quoted(value)}.`,
        hint: enumHint(value, allowed),
      };
    }
    case 'minLength':
      return {
        code: 'schema/min-length',
        path,
        anchor: 'value',
        message: `${label} is empty.`,
        hint: path.length === 1 && path[0] === 'description' ? 'Say what the skill does and when to use it.' : `Give ${label} a value, or remove the key.`,
      };
    case 'minimum': {
      const limit = (error.params as { limit: number }).limit;
      return { code: 'schema/minimum', path, anchor: 'value', message: `${label} must be at least ${limit}, got ${quoted(value)}.`, hint: `Use a number of ${limit} or more.` };
    }
    case 'pattern':
      return { code: 'schema/pattern', path, anchor: 'value', ...patternText(path, value, label, parent) };
    default:
      return {
        code: code(error.keyword),
        path,
        anchor: 'value',
        message: `${label} ${error.message ?? 'is invalid'}, got ${quoted(value)}.`,
        hint: parent?.description === undefined ? 'Fix the value.' : `Expected: ${parent.description}`,
      };
  }
}

function requiredHint(missing: string, path: FieldPath): string {
  if (path.length === 0 && missing === 'name') return 'Add `name:` with the skill\'s folder name (lowercase letters, digits and hyphens).';
  if (path.length === 0 && missing === 'description') return 'Add `description:` saying what the skill does and when to use it.';
  return `Add \`${missing}:\` to \`${renderPath(path)}\`.`;
}

function enumHint(value: unknown, allowed: readonly string[]): string {
  const near = allowed.find((option) => typeof value === 'string' && option.toLowerCase() === value.trim().toLowerCase());
  return near === undefined ? `Use one of: ${allowed.join(', ')}.` : `Write it as \`${near}\` (lowercase, no spaces).`;
}

function patternText(path: FieldPath, value: unknown, label: string, parent: SchemaNode | undefined): { message: string; hint: string } {
  const field = path[path.length - 1];
  if (path.length === 1 && field === 'name') {
    const fixed = slugify(String(value));
    return {
      message: `${label} must be lowercase letters, digits and single hyphens, got ${quoted(value)}.`,
      hint: fixed === '' ? 'Use a name such as `my-skill`, matching the folder name.' : `Rename it to \`${fixed}\`, and its folder to match.`,
    };
  }
  if (path.length === 1 && field === 'version') {
    return {
      message: `${label} must be a semantic version such as \`1.0.0\`, got ${quoted(value)}.`,
      hint: 'Use major.minor.patch, e.g. `version: "1.0.0"`.',
    };
  }
  return { message: `${label} must match \`${parent?.pattern ?? ''}\`, got ${quoted(value)}.`, hint: 'Change the value to match the pattern.' };
}
