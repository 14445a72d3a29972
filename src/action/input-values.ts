import { SkillgardenError } from '../core/errors.js';

/** How one `with:` input is read, for inputs.ts and publish-inputs.ts: the names, lists and booleans as `@actions/core` reads them. */
export type Env = Readonly<Record<string, string | undefined>>;

/** As `core.getInput` reads it: `INPUT_<NAME>`, upper-cased, spaces as `_`, hyphens kept. */
export function input(env: Env, name: string): string {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

export function badInput(name: string, value: string, expected: string): SkillgardenError {
  return new SkillgardenError(
    'action/bad-input',
    `Input \`${name}\` is "${value}": expected ${expected}. Fix the \`with:\` block of the step.`,
    {
      data: { input: name, value },
    },
  );
}

/** YAML 1.2 core schema booleans, as `core.getBooleanInput` accepts them. */
export function booleanInput<T extends boolean | undefined>(env: Env, name: string, fallback: T): boolean | T {
  const value = input(env, name);
  if (value === '') return fallback;
  if (['true', 'True', 'TRUE'].includes(value)) return true;
  if (['false', 'False', 'FALSE'].includes(value)) return false;
  throw badInput(name, value, 'true or false');
}

/** Comma- or newline-separated values. */
export function splitList(value: string): string[] {
  return value
    .split(/[,\n]/)
    .map((v) => v.trim())
    .filter(Boolean);
}
