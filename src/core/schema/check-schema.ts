import { compareFindings, excerpt, finding, type Finding, type Severity } from '../findings.js';
import { collapseErrors } from './collapse-errors.js';
import { compileProfile } from './compile-profile.js';
import { explainError, type Problem } from './explain-error.js';
import { toPlainData } from './plain-data.js';
import { describeValue, renderValue, safeString } from './render-value.js';
import type { FieldPath, Position, ProfileName, SchemaCheckInput } from './types.js';

const wholeFrontmatter: Position = { line: 1, column: 0 };

/**
 * Validates parsed frontmatter against the schema of one profile and returns
 * findings placed at the offending key or value. Never throws: a failure of
 * its own becomes a `schema/internal` finding.
 */
export function checkSchema(input: SchemaCheckInput): Finding[] {
  try {
    return checkUnsafe(input).sort(compareFindings);
  } catch (error) {
    return [
      finding({
        code: 'schema/internal',
        severity: 'error',
        file: input.file,
        ...wholeFrontmatter,
        message: `The schema check failed on this frontmatter: ${excerpt(safeString(error))}.`,
        hint: 'This is a skillgarden bug: please report it with the frontmatter that triggers it.',
      }),
    ];
  }
}

function checkUnsafe(input: SchemaCheckInput): Finding[] {
  const { data, file } = input;
  if (data === null || typeof data !== 'object' || Array.isArray(data) || data instanceof Date) {
    return [
      finding({
        code: 'schema/not-a-map',
        severity: 'error',
        file,
        ...wholeFrontmatter,
        message: `The frontmatter must be a mapping of keys to values, got ${describeValue(data)}: \`${renderValue(data)}\`.`,
        hint: 'Write `key: value` lines between the `---` fences, starting with `name:` and `description:`.',
      }),
    ];
  }
  const plain = input.plain ? ({ ok: true, data } as const) : toPlainData(data);
  if (!plain.ok) {
    return [
      finding({
        code: 'schema/too-complex',
        severity: 'error',
        file,
        ...wholeFrontmatter,
        message:
          plain.reason === 'cycle'
            ? 'The frontmatter refers to itself through a YAML alias (`*name` inside its own anchor).'
            : 'The frontmatter is nested too deeply to validate.',
        hint: 'Write the values out plainly instead of through anchors and aliases.',
      }),
    ];
  }
  const validate = compileProfile(input.profile);
  if (validate(plain.data)) return [];
  const problems = collapseErrors(validate.errors ?? []).map((error) => explainError(error, { profile: input.profile, data: plain.data }));
  return unique(problems).map((problem) => toFinding(problem, input));
}

function unique(problems: readonly Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = `${problem.code}\u0000${JSON.stringify(problem.path)}\u0000${problem.message}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

function severityOf(problem: Problem, profile: ProfileName): Severity {
  return problem.code === 'schema/unknown-key' && profile !== 'spec' && profile !== 'agent-plugins' ? 'warning' : 'error';
}

function toFinding(problem: Problem, input: SchemaCheckInput): Finding {
  const position = locate(input, problem.path, problem.anchor);
  return finding({
    code: problem.code,
    severity: severityOf(problem, input.profile),
    file: input.file,
    line: position.line,
    column: position.column,
    message: problem.message,
    hint: problem.hint,
  });
}

/** The key or value at path, else the nearest ancestor the locator knows, else the frontmatter. */
function locate(input: SchemaCheckInput, path: FieldPath, anchor: 'key' | 'value'): Position {
  const [first, second] = anchor === 'key' ? [input.locateKey, input.locateValue] : [input.locateValue, input.locateKey];
  for (let length = path.length; length >= 0; length--) {
    const prefix = path.slice(0, length);
    const position = safely(() => first(prefix)) ?? safely(() => second(prefix));
    if (position !== undefined) return position;
  }
  return wholeFrontmatter;
}

function safely(locateAt: () => Position | undefined): Position | undefined {
  try {
    const position = locateAt();
    return position !== undefined && Number.isInteger(position.line) && position.line >= 1 ? position : undefined;
  } catch {
    return undefined;
  }
}
