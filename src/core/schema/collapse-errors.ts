import type { ErrorObject } from 'ajv/dist/2020.js';
import type { SchemaNode } from './skill-schema.js';

/**
 * Ajv reports an `anyOf` failure as the failure of every branch plus the
 * `anyOf` itself: `tags: [1]` yields "must be string", "tags/0 must be
 * string" and "must match a schema in anyOf". A person needs one of them.
 * When a branch accepted the value's type and failed on something else (the
 * list branch, on an item), its errors are the real problem; otherwise the value
 * has the wrong type for every branch, and one `type` error names them all.
 * (A branch that reaches another combinator through `$ref` would escape the
 * schema-path grouping; the skill schema has none.)
 */
export function collapseErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  let pending = [...errors];
  for (;;) {
    const combinator = outermostCombinator(pending);
    if (combinator === undefined) return pending;
    const prefix = `${combinator.schemaPath}/`;
    const isBranchError = (error: ErrorObject): boolean =>
      error.schemaPath.startsWith(prefix) && isSameOrBelow(error.instancePath, combinator.instancePath);
    const branchErrors = pending.filter(isBranchError);
    const rest = pending.filter((error) => error !== combinator && !isBranchError(error));
    pending = [...rest, ...chooseBranch(combinator, branchErrors)];
  }
}

function outermostCombinator(errors: readonly ErrorObject[]): ErrorObject | undefined {
  let best: ErrorObject | undefined;
  for (const error of errors) {
    if (error.keyword !== 'anyOf' && error.keyword !== 'oneOf') continue;
    if (best === undefined || error.instancePath.length < best.instancePath.length) best = error;
  }
  return best;
}

function isSameOrBelow(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}/`);
}

function chooseBranch(combinator: ErrorObject, branchErrors: readonly ErrorObject[]): ErrorObject[] {
  const byBranch = new Map<string, ErrorObject[]>();
  for (const error of branchErrors) {
    const branch = error.schemaPath.slice(combinator.schemaPath.length + 1).split('/')[0] ?? '';
    byBranch.set(branch, [...(byBranch.get(branch) ?? []), error]);
  }
  for (const errors of byBranch.values()) {
    const typeMatched = !errors.some((error) => error.keyword === 'type' && error.instancePath === combinator.instancePath);
    if (typeMatched) return errors;
  }
  // No branch accepted the value's type: one type error naming every branch.
  return [{ ...combinator, keyword: 'type', params: { type: 'anyOf' }, parentSchema: { anyOf: combinator.schema as SchemaNode[] } }];
}
