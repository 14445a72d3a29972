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

/** What every explainer needs to know about one ajv error. */
interface Facts {
  error: ErrorObject;
  profile: ProfileName;
  path: FieldPath;
  value: unknown;
  /** The path in backticks, for messages. */
  label: string;
  /** The (sub)schema that failed; ajv's `verbose` option provides it. */
  schema: SchemaNode | undefined;
}

const quoted = (value: unknown): string => `\`${renderValue(value)}\``;
const atValue = (facts: Facts, code: string, message: string, hint: string): Problem => ({
  code,
  path: facts.path,
  anchor: 'value',
  message,
  hint,
});

const explainers: Record<string, (facts: Facts) => Problem> = {
  additionalProperties(facts) {
    const key = String((facts.error.params as { additionalProperty: string }).additionalProperty);
    const keyPath = [...facts.path, key];
    const known = Object.keys(facts.schema?.properties ?? {});
    return {
      code: 'schema/unknown-key',
      path: keyPath,
      anchor: 'key',
      message: `Unknown key \`${renderPath(keyPath)}\`: the ${facts.profile} profile does not define it.`,
      hint: unknownKeyHint({ key, parentPath: facts.path, known, profile: facts.profile }),
    };
  },
  required(facts) {
    const missing = String((facts.error.params as { missingProperty: string }).missingProperty);
    const atRoot = facts.path.length === 0;
    const hint =
      atRoot && missing === 'name'
        ? "Add `name:` with the skill's folder name (lowercase letters, digits and hyphens)."
        : atRoot && missing === 'description'
          ? 'Add `description:` saying what the skill does and when to use it.'
          : `Add \`${missing}:\` to ${facts.label}.`;
    return {
      code: 'schema/required',
      path: facts.path,
      anchor: 'key',
      message: `${atRoot ? 'The frontmatter' : facts.label} has no \`${missing}\`.`,
      hint,
    };
  },
  type(facts) {
    const expected = describeExpected(facts.schema);
    const message = `${facts.label} must be ${expected}, got ${describeValue(facts.value)}: ${quoted(facts.value)}.`;
    return atValue(facts, 'schema/type', message, typeHint({ path: facts.path, value: facts.value, expected, profile: facts.profile }));
  },
  enum(facts) {
    const allowed = (facts.schema?.enum ?? []).map(String);
    const value = facts.value;
    const near = allowed.find((option) => typeof value === 'string' && option.toLowerCase() === value.trim().toLowerCase());
    const message = `${facts.label} must be ${joinWords(
      allowed.map((v) => `\`${v}\``),
      'or',
    )}, got ${quoted(value)}.`;
    return atValue(
      facts,
      'schema/enum',
      message,
      near === undefined ? `Use one of: ${allowed.join(', ')}.` : `Write it as \`${near}\` (lowercase, no spaces).`,
    );
  },
  minLength(facts) {
    const isDescription = facts.path.length === 1 && facts.path[0] === 'description';
    const hint = isDescription ? 'Say what the skill does and when to use it.' : `Give ${facts.label} a value, or remove the key.`;
    return atValue(facts, 'schema/min-length', `${facts.label} is empty.`, hint);
  },
  minimum(facts) {
    const limit = (facts.error.params as { limit: number }).limit;
    return atValue(
      facts,
      'schema/minimum',
      `${facts.label} must be at least ${limit}, got ${quoted(facts.value)}.`,
      `Use a number of ${limit} or more.`,
    );
  },
  pattern(facts) {
    const { path, value, label } = facts;
    if (path.length === 1 && path[0] === 'name') {
      const fixed = slugify(String(value));
      const hint =
        fixed === '' ? 'Use a name such as `my-skill`, matching the folder name.' : `Rename it to \`${fixed}\`, and its folder to match.`;
      return atValue(facts, 'schema/pattern', `${label} must be lowercase letters, digits and single hyphens, got ${quoted(value)}.`, hint);
    }
    if (path.length === 1 && path[0] === 'version') {
      return atValue(
        facts,
        'schema/pattern',
        `${label} must be a semantic version such as \`1.0.0\`, got ${quoted(value)}.`,
        'Use major.minor.patch, e.g. `version: "1.0.0"`.',
      );
    }
    return atValue(
      facts,
      'schema/pattern',
      `${label} must match \`${facts.schema?.pattern ?? ''}\`, got ${quoted(value)}.`,
      'Change the value to match the pattern.',
    );
  },
};

const codeOf = (keyword: string): string => `schema/${keyword.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

function explainOther(facts: Facts): Problem {
  const message = `${facts.label} ${facts.error.message ?? 'is invalid'}, got ${quoted(facts.value)}.`;
  const hint = facts.schema?.description === undefined ? 'Fix the value.' : `Expected: ${facts.schema.description}`;
  return atValue(facts, codeOf(facts.error.keyword), message, hint);
}

export function explainError(error: ErrorObject, context: ExplainContext): Problem {
  const path = pointerToPath(error.instancePath, context.data);
  const facts: Facts = {
    error,
    profile: context.profile,
    path,
    value: valueAt(context.data, path),
    label: `\`${renderPath(path)}\``,
    schema: error.parentSchema,
  };
  return (Object.hasOwn(explainers, error.keyword) ? explainers[error.keyword]! : explainOther)(facts);
}
