import { Ajv, type ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { answerGitData } from './fake-git-data.js';

/**
 * A fake GitHub REST API on 127.0.0.1 that checks every request against
 * GitHub's published OpenAPI description (the operations extracted into
 * test/fixtures/github-openapi) and answers as GitHub does for the fields
 * the Action reads. Unknown routes and invalid requests are recorded as
 * violations, which every test asserts are empty.
 */
interface OperationSpec {
  operationId: string;
  parameters: { name: string; in: string; required: boolean; schema: object }[];
  requestBody?: { required: boolean; schema: object };
  responses: Record<string, { schema?: object }>;
}

export interface FakePull {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  merged_at: string | null;
  head: { ref: string; sha: string };
  base: string;
  labels: string[];
  comments: string[];
  draft: boolean;
  requestedReviewers: string[];
  requestedTeams: string[];
  assignees: string[];
}

export interface Failure {
  operationId: string;
  status: number;
  headers?: Record<string, string>;
  times: number;
}

export interface FakeGitHub {
  url: string;
  pulls: FakePull[];
  /** Every request that matched an operation, with its JSON body (undefined for none). */
  requests: { method: string; path: string; operationId: string; body?: unknown }[];
  violations: string[];
  failures: Failure[];
  /** Commits made through the git data API: GitHub signs these (verification.verified). */
  signed: Set<string>;
  close(): Promise<void>;
}

const specs = (
  JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'github-openapi', 'operations.json'), 'utf8')) as {
    operations: Record<string, OperationSpec>;
  }
).operations;
const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
const queryAjv = new Ajv({ strict: false, validateFormats: false, coerceTypes: true });

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  spec: OperationSpec;
  checkBody?: ValidateFunction;
  checkResponse: Record<string, ValidateFunction>;
}

const routes: Route[] = Object.entries(specs).map(([key, spec]) => {
  const [upper = '', path = ''] = key.split(' ');
  const method = upper.toLowerCase();
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  const pattern = new RegExp(`^${path.replace(/\{\w+\}/g, '([^/]+)')}$`);
  const checkResponse = Object.fromEntries(
    Object.entries(spec.responses).flatMap(([status, r]) => (r.schema ? [[status, ajv.compile(r.schema)]] : [])),
  );
  return { method, pattern, names, spec, ...(spec.requestBody ? { checkBody: ajv.compile(spec.requestBody.schema) } : {}), checkResponse };
});

export interface FakeOptions {
  owner: string;
  repo: string;
  /** The head commit of a branch in the real origin, or null when it does not exist (GitHub refuses a PR for it). */
  branchSha: (branch: string) => string | null;
  /** The bare origin: the git data API (blobs, trees, commits, refs) writes into it. */
  bare: string;
  /** Logins with access to the repository: reviews may be requested only from them (GitHub answers 422 otherwise). */
  collaborators?: readonly string[];
}

export async function startFakeGitHub(options: FakeOptions): Promise<FakeGitHub> {
  const state: FakeGitHub = {
    url: '',
    pulls: [],
    requests: [],
    violations: [],
    failures: [],
    signed: new Set(),
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(state, options, req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise((resolve) => server.close(() => resolve()));
  return state;
}

function handle(state: FakeGitHub, options: FakeOptions, req: IncomingMessage, res: ServerResponse, text: string): void {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const method = (req.method ?? 'GET').toLowerCase();
  const route = routes.find((r) => r.method === method && r.pattern.test(url.pathname));
  const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    const check = route?.checkResponse[String(status)];
    if (check && !check(body))
      state.violations.push(`fake answered ${route?.spec.operationId} ${status} unlike GitHub: ${ajv.errorsText(check.errors)}`);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-ratelimit-remaining': '4999', ...headers });
    res.end(JSON.stringify(body));
  };
  if (!route) {
    state.violations.push(`no such GitHub operation: ${method.toUpperCase()} ${url.pathname}`);
    return send(404, { message: 'Not Found' });
  }
  const problem = checkRequest(route, url, req, text);
  state.requests.push({
    method: method.toUpperCase(),
    path: url.pathname + url.search,
    operationId: route.spec.operationId,
    ...(text ? { body: parseJson(text) } : {}),
  });
  if (problem) {
    state.violations.push(`${route.spec.operationId}: ${problem}`);
    return send(422, { message: 'Validation Failed', errors: [problem] });
  }
  const failure = state.failures.find((f) => f.operationId === route.spec.operationId && f.times > 0);
  if (failure) {
    failure.times--;
    return send(failure.status, { message: `fake failure ${failure.status}` }, failure.headers);
  }
  const params = Object.fromEntries(
    route.names.map((name, i) => [name, decodeURIComponent(route.pattern.exec(url.pathname)?.[i + 1] ?? '')]),
  );
  if (params.owner !== options.owner || params.repo !== options.repo) return send(404, { message: 'Not Found' });
  const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  answer(state, options, route.spec.operationId, { params, query: url.searchParams, body, send });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function checkRequest(route: Route, url: URL, req: IncomingMessage, text: string): string | null {
  if (!/^(token|bearer) \S+/i.test(req.headers.authorization ?? '')) return 'no Authorization header with a token';
  const match = route.pattern.exec(url.pathname);
  for (const p of route.spec.parameters) {
    const raw = p.in === 'path' ? match?.[route.names.indexOf(p.name) + 1] : p.in === 'query' ? url.searchParams.get(p.name) : undefined;
    if (p.in !== 'path' && p.in !== 'query') continue;
    if (raw === undefined || raw === null) {
      if (p.required) return `missing ${p.in} parameter ${p.name}`;
      continue;
    }
    const holder = { value: decodeURIComponent(raw) as unknown };
    const check = queryAjv.compile({ type: 'object', properties: { value: p.schema } });
    if (!check(holder)) return `${p.in} parameter ${p.name}=${raw}: ${queryAjv.errorsText(check.errors)}`;
  }
  for (const key of url.searchParams.keys()) {
    if (!route.spec.parameters.some((p) => p.in === 'query' && p.name === key)) return `unknown query parameter ${key}`;
  }
  if (route.checkBody) {
    if (!text) return route.spec.requestBody?.required ? 'missing request body' : null;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return 'request body is not JSON';
    }
    if (!route.checkBody(body)) return `request body: ${ajv.errorsText(route.checkBody.errors)}`;
  }
  return null;
}

interface Call {
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
  send: (status: number, body: unknown, headers?: Record<string, string>) => void;
}

function view(state: FakeGitHub, pull: FakePull) {
  return {
    number: pull.number,
    html_url: `https://github.com/fake/pull/${pull.number}`,
    state: pull.state,
    merged_at: pull.merged_at,
    title: pull.title,
    body: pull.body,
    head: pull.head,
    base: { ref: pull.base },
    draft: pull.draft,
    labels: pull.labels.map((name) => ({ name })),
  };
}

function answer(state: FakeGitHub, options: FakeOptions, operationId: string, call: Call): void {
  const { params, query, body, send } = call;
  const find = () => state.pulls.find((p) => p.number === Number(params.pull_number ?? params.issue_number));
  switch (operationId) {
    case 'pulls/list': {
      const head = query.get('head');
      const wanted = query.get('state') ?? 'open';
      const list = state.pulls
        .filter((p) => (head ? `${options.owner}:${p.head.ref}` === head : true) && (wanted === 'all' || p.state === wanted))
        .sort((a, b) => b.number - a.number);
      return send(
        200,
        list.map((p) => view(state, p)),
      );
    }
    case 'pulls/create': {
      const ref = String(body.head);
      const sha = options.branchSha(ref);
      if (sha === null) return send(422, { message: 'Validation Failed', errors: [{ field: 'head', code: 'invalid' }] });
      if (state.pulls.some((p) => p.head.ref === ref && p.state === 'open'))
        return send(422, { message: `A pull request already exists for ${options.owner}:${ref}.` });
      const pull: FakePull = {
        number: state.pulls.length + 1,
        title: String(body.title),
        body: typeof body.body === 'string' ? body.body : '',
        state: 'open',
        merged_at: null,
        head: { ref, sha },
        base: String(body.base),
        labels: [],
        comments: [],
        draft: body.draft === true,
        requestedReviewers: [],
        requestedTeams: [],
        assignees: [],
      };
      state.pulls.push(pull);
      return send(201, view(state, pull));
    }
    case 'pulls/get':
    case 'pulls/update': {
      const pull = find();
      if (!pull) return send(404, { message: 'Not Found' });
      if (typeof body.title === 'string') pull.title = body.title;
      if (typeof body.body === 'string') pull.body = body.body;
      if (body.state === 'open' || body.state === 'closed') pull.state = body.state;
      pull.head.sha = options.branchSha(pull.head.ref) ?? pull.head.sha;
      return send(200, view(state, pull));
    }
    case 'issues/add-labels': {
      const pull = find();
      if (!pull) return send(404, { message: 'Not Found' });
      for (const label of (body.labels as string[]) ?? []) if (!pull.labels.includes(label)) pull.labels.push(label);
      return send(
        200,
        pull.labels.map((name) => ({ id: 1, name })),
      );
    }
    case 'issues/create-comment': {
      const pull = find();
      if (!pull) return send(404, { message: 'Not Found' });
      pull.comments.push(String(body.body));
      return send(201, { id: pull.comments.length, html_url: `https://github.com/fake/pull/${pull.number}#comment` });
    }
    case 'pulls/request-reviewers': {
      const pull = find();
      if (!pull) return send(404, { message: 'Not Found' });
      const reviewers = (body.reviewers as string[] | undefined) ?? [];
      const outsiders = reviewers.filter((r) => !(options.collaborators ?? []).includes(r));
      if (outsiders.length > 0) return send(422, { message: 'Reviews may only be requested from collaborators.', errors: outsiders });
      pull.requestedReviewers.push(...reviewers.filter((r) => !pull.requestedReviewers.includes(r)));
      const teams = (body.team_reviewers as string[] | undefined) ?? [];
      pull.requestedTeams.push(...teams.filter((t) => !pull.requestedTeams.includes(t)));
      return send(201, {
        ...view(state, pull),
        requested_reviewers: pull.requestedReviewers.map((login) => ({ login })),
        requested_teams: pull.requestedTeams.map((slug) => ({ slug })),
      });
    }
    case 'issues/add-assignees': {
      const pull = find();
      if (!pull) return send(404, { message: 'Not Found' });
      // GitHub silently ignores assignees without access to the repository.
      const accepted = ((body.assignees as string[] | undefined) ?? []).filter((a) => (options.collaborators ?? []).includes(a));
      pull.assignees.push(...accepted.filter((a) => !pull.assignees.includes(a)));
      return send(201, { ...view(state, pull), assignees: pull.assignees.map((login) => ({ login })) });
    }
    default:
      if (answerGitData(options.bare, state, operationId, { params, body, send })) return;
      return send(501, { message: `fake does not implement ${operationId}` });
  }
}
