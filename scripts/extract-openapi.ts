/**
 * Extracts the few GitHub REST operations the Action calls from GitHub's
 * published OpenAPI description (`@octokit/openapi`, dereferenced) into
 * `test/fixtures/github-openapi/operations.json`, so the fake GitHub in
 * `test/action/` checks every request against the real contract without
 * loading a 70 MB file. Run: `npx tsx scripts/extract-openapi.ts`.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** Method and path of every operation the Action uses. */
export const usedOperations = [
  ['get', '/repos/{owner}/{repo}/pulls'],
  ['post', '/repos/{owner}/{repo}/pulls'],
  ['get', '/repos/{owner}/{repo}/pulls/{pull_number}'],
  ['patch', '/repos/{owner}/{repo}/pulls/{pull_number}'],
  ['post', '/repos/{owner}/{repo}/issues/{issue_number}/labels'],
  ['post', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['post', '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers'],
  ['post', '/repos/{owner}/{repo}/issues/{issue_number}/assignees'],
  // sign-commits: the proposal commit made through the git data API, so GitHub signs it.
  ['post', '/repos/{owner}/{repo}/git/blobs'],
  ['post', '/repos/{owner}/{repo}/git/trees'],
  ['post', '/repos/{owner}/{repo}/git/commits'],
  ['get', '/repos/{owner}/{repo}/git/ref/{ref}'],
  ['post', '/repos/{owner}/{repo}/git/refs'],
  ['patch', '/repos/{owner}/{repo}/git/refs/{ref}'],
] as const;

/** Response fields the Action reads; the rest of GitHub's large objects is left out. */
const readFields: Record<string, string[]> = {
  pull: ['number', 'html_url', 'state', 'merged_at', 'title', 'body', 'head', 'base', 'draft'],
  head: ['ref', 'sha'],
  base: ['ref'],
  label: ['name'],
  comment: ['id', 'html_url'],
  reviewed: ['number', 'requested_reviewers', 'requested_teams'],
  requested_reviewers: ['login'],
  requested_teams: ['slug'],
  assigned: ['number', 'assignees'],
  assignees: ['login'],
  blob: ['sha'],
  tree: ['sha'],
  commit: ['sha', 'tree', 'parents', 'verification'],
  parents: ['sha'],
  verification: ['verified', 'reason'],
  ref: ['ref', 'object'],
  object: ['sha', 'type'],
};

type Schema = Record<string, unknown>;
interface Spec {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
}
interface Operation {
  operationId: string;
  parameters?: { name: string; in: string; required?: boolean; schema: Schema }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

const dropped = new Set(['description', 'example', 'examples', 'title', 'externalDocs', 'deprecated', 'readOnly']);

/** OpenAPI 3.0 → JSON Schema for ajv: `nullable` becomes a null type; prose, examples and x-* go. */
function clean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(clean);
  if (node === null || typeof node !== 'object') return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (dropped.has(key) || key.startsWith('x-') || key === 'nullable') continue;
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value as Schema).map(([k, v]) => [k, clean(v)])) : clean(value);
  }
  if ((node as Schema).nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (out.enum) out.enum = [...(out.enum as unknown[]), null];
    else return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

/** Keeps only the fields the Action reads, so a fake answer is checked on what matters. */
function prune(schema: Schema, kind: string): Schema {
  if (schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array')))
    return { ...schema, items: prune(schema.items as Schema, kind) };
  const fields = readFields[kind];
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (!fields || !properties) return schema;
  const kept: Record<string, Schema> = {};
  for (const field of fields) {
    const property = properties[field];
    if (property) kept[field] = readFields[field] ? prune(property, field) : property;
  }
  const required = ((schema.required as string[] | undefined) ?? []).filter((r) => fields.includes(r));
  return { type: 'object', properties: kept, required };
}

const kindOf: Record<string, string> = {
  'pulls/request-reviewers': 'reviewed',
  'issues/add-assignees': 'assigned',
  'issues/add-labels': 'label',
  'issues/create-comment': 'comment',
  'git/create-blob': 'blob',
  'git/create-tree': 'tree',
  'git/create-commit': 'commit',
  'git/get-ref': 'ref',
  'git/create-ref': 'ref',
  'git/update-ref': 'ref',
};

function responseKind(operationId: string): string {
  return kindOf[operationId] ?? (operationId.startsWith('pulls/') ? 'pull' : 'comment');
}

function extract(spec: Spec): Record<string, unknown> {
  const operations: Record<string, unknown> = {};
  for (const [method, path] of usedOperations) {
    const op = spec.paths[path]?.[method];
    if (!op) throw new Error(`${method.toUpperCase()} ${path} is not in the OpenAPI description`);
    const kind = responseKind(op.operationId);
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(op.responses)) {
      const schema = response.content?.['application/json']?.schema;
      if (!schema || !status.startsWith('2')) responses[status] = {};
      else {
        const cleaned = clean(schema) as Schema;
        responses[status] = {
          schema: cleaned.type === 'array' ? { type: 'array', items: prune(cleaned.items as Schema, kind) } : prune(cleaned, kind),
        };
      }
    }
    operations[`${method.toUpperCase()} ${path}`] = {
      operationId: op.operationId,
      parameters: (op.parameters ?? []).map((p) => ({ name: p.name, in: p.in, required: p.required ?? false, schema: clean(p.schema) })),
      ...(op.requestBody
        ? { requestBody: { required: op.requestBody.required ?? false, schema: clean(op.requestBody.content['application/json']?.schema) } }
        : {}),
      responses,
    };
  }
  return {
    source: `GitHub's REST API description (github/rest-api-description, api.github.com) as @octokit/openapi ${spec.info.version} ships it: generated/api.github.com.deref.json, OpenAPI ${spec.openapi}`,
    operations,
  };
}

const require = createRequire(import.meta.url);
const specPath = require.resolve('@octokit/openapi/generated/api.github.com.deref.json');
const out = join(import.meta.dirname, '..', 'test', 'fixtures', 'github-openapi', 'operations.json');
const spec = JSON.parse(readFileSync(specPath, 'utf8')) as Spec;
const temp = `${out}.${process.pid}.tmp`;
writeFileSync(temp, `${JSON.stringify(extract(spec), null, 2)}\n`);
renameSync(temp, out);
console.log(`wrote ${out}`);
