import type { ErrorObject } from 'ajv/dist/2020.js';
import type { SchemaNode } from './skill-schema.js';

/**
 * Ajv reports an `anyOf` failure as the failure of every branch plus the
 * `anyOf` itself: `tags: [1]` yields "must be string", "tags/0 must be
 * string" and "must match a schema in anyOf". A person needs one of them.
 * When a branch accepted the value's type and failed on something else (the
 * list branch, on an item), its errors are the real problem; otherwise the
 * value has the wrong type for every branch, and one `type` error names them.
 *
 * Ajv emits a combinator's branch errors as one run right before it, and an
 * inner combinator before its outer one, so a single pass that folds each run
 * into its combinator handles nesting in linear time.
 */
export function collapseErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  const out: ErrorObject[] = [];
  for (const error of errors) {
    if (error.keyword !== 'anyOf' && error.keyword !== 'oneOf') {
      out.push(error);
      continue;
    }
    const branchErrors: ErrorObject[] = [];
    while (out.length > 0 && belongsTo(out[out.length - 1]!, error)) branchErrors.unshift(out.pop()!);
    out.push(...chooseBranch(error, branchErrors));
  }
  return out;
}

function belongsTo(error: ErrorObject, combinator: ErrorObject): boolean {
  const below = error.instancePath === combinator.instancePath || error.instancePath.startsWith(`${combinator.instancePath}/`);
  return below && error.schemaPath.startsWith(`${combinator.schemaPath}/`);
}

function chooseBranch(combinator: ErrorObject, branchErrors: readonly ErrorObject[]): ErrorObject[] {
  const byBranch = new Map<string, ErrorObject[]>();
  for (const error of branchErrors) {
    const branch = error.schemaPath.slice(combinator.schemaPath.length + 1).split('/')[0] ?? '';
    const list = byBranch.get(branch);
    if (list === undefined) byBranch.set(branch, [error]);
    else list.push(error);
  }
  for (const errors of byBranch.values()) {
    const typeMatched = !errors.some((error) => error.keyword === 'type' && error.instancePath === combinator.instancePath);
    if (typeMatched) return errors;
  }
  // No branch accepted the value's type: one type error naming every branch.
  return [{ ...combinator, keyword: 'type', params: { type: 'anyOf' }, parentSchema: { anyOf: combinator.schema as SchemaNode[] } }];
}
