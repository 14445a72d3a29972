import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type JSONRPCRequest,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import { looksBinary } from '../core/skill/index.js';
import type { SkillRegistry } from '../registry/skill-registry.js';
import { SkillCatalog, type CatalogSkill, type SkillEntry, type WithheldSkill } from './skill-catalog.js';
import { decodeCursor, mimeTypeOf, paginate, skillDirUri, skillScheme, skillUriPath } from './skill-uri.js';

/** The extension's identifier (SEP-2640), declared under `capabilities.extensions`. */
export const skillsExtensionId = 'io.modelcontextprotocol/skills';
export const skillsExtensionCapability = { [skillsExtensionId]: { directoryRead: true } };
/** `_meta` key naming the skills this server holds but will not serve, and why. */
export const withheldMetaKey = 'io.modelcontextprotocol.skills/withheld';
const pageSize = 50;
const directoryMime = 'inode/directory';

/** The versions `publish` names, by skill folder, for the skills given (vendored skills: `0.N.0+upstream.<commit>`). */
export type SkillVersions = (skills: readonly { name: string; dir: string }[]) => Promise<ReadonlyMap<string, string>>;

interface Snapshot {
  skills: CatalogSkill[];
  withheld: WithheldSkill[];
}

/**
 * Serves the library by the MCP Skills extension: `skills/list`, `skills/get`,
 * every file as a `skill://` resource (`resources/list` names each SKILL.md,
 * `resources/read` any listed file) and `resources/directory/read`.
 * The SDK has no schema for the extension's methods, so they are answered
 * from the server's fallback handler; other unknown methods stay "not found".
 */
export function installSkillsExtension(server: Server, registry: SkillRegistry, versions?: SkillVersions): void {
  const catalog = new SkillCatalog();
  const snapshot = (): Snapshot => {
    const skills: CatalogSkill[] = [];
    const withheld: WithheldSkill[] = [];
    const entries = [...registry.list()].sort((a, b) => (a.relativeDir < b.relativeDir ? -1 : a.relativeDir > b.relativeDir ? 1 : 0));
    for (const entry of entries) {
      const result = catalog.read(entry.relativeDir, entry.dir);
      if (result.ok) skills.push(result.skill);
      else withheld.push(result.withheld);
    }
    return { skills, withheld };
  };
  const find = (uri: string): CatalogSkill | undefined => {
    const path = skillUriPath(uri);
    if (path === undefined) return undefined;
    const entry = registry.list().find((e) => path === e.relativeDir || path.startsWith(`${e.relativeDir}/`));
    if (!entry) return undefined;
    const result = catalog.read(entry.relativeDir, entry.dir);
    if (!result.ok) throw invalid(result.withheld.message, { withheld: result.withheld });
    return result.skill;
  };

  const previous = server.fallbackRequestHandler;
  server.fallbackRequestHandler = async (request: JSONRPCRequest, extra) => {
    const params = (request.params ?? {}) as Record<string, unknown>;
    switch (request.method) {
      case 'skills/list':
        return listSkills(snapshot(), params, versions);
      case 'skills/get':
        return getSkill(find, params, versions);
      case 'resources/directory/read':
        return readDirectory(snapshot(), params);
      default:
        if (previous) return previous(request, extra);
        throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    }
  };

  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const { skills } = snapshot();
    const page = paginate(skills, (s) => s.entry.uri, cursorOf(request.params?.cursor), pageSize);
    const resources: Resource[] = page.items.map((s) => ({
      uri: s.entry.uri,
      name: String(s.entry.frontmatter.name),
      description: String(s.entry.frontmatter.description),
      mimeType: 'text/markdown',
      size: s.files.get('SKILL.md')?.size,
    }));
    return page.nextCursor ? { resources, nextCursor: page.nextCursor } : { resources };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    const skill = find(uri);
    const file = skill ? [...skill.files.values()].find((f) => f.uri === uri) : undefined;
    if (!skill || !file) throw invalid(`no resource ${uri}: it is not a file of a served skill (skills/get lists a skill's files)`);
    const bytes = readFileSync(join(skill.dir, file.path));
    const mimeType = mimeTypeOf(file.path);
    const text = textOf(bytes);
    return { contents: [text === undefined ? { uri, mimeType, blob: bytes.toString('base64') } : { uri, mimeType, text }] };
  });
}

async function listSkills(snapshot: Snapshot, params: Record<string, unknown>, versions: SkillVersions | undefined) {
  const after = cursorOf(params.cursor);
  const page = paginate(snapshot.skills, (s) => s.entry.uri, after, pageSize);
  // Withheld skills are named once, on the first page.
  const withheld = after === undefined ? snapshot.withheld : [];
  return {
    resultType: 'complete',
    skills: await withVersions(page.items, versions),
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    ...(withheld.length > 0 ? { _meta: { [withheldMetaKey]: withheld } } : {}),
  };
}

async function getSkill(
  find: (uri: string) => CatalogSkill | undefined,
  params: Record<string, unknown>,
  versions: SkillVersions | undefined,
) {
  const uri = params.uri;
  if (typeof uri !== 'string') throw invalid("skills/get needs params.uri: the URI of a skill's SKILL.md");
  const skill = find(uri);
  if (!skill || skill.entry.uri !== uri) {
    throw invalid(`no skill at ${uri}: a skill is named by its SKILL.md URI (skill://<skill-path>/SKILL.md); skills/list gives them`);
  }
  const [entry] = await withVersions([skill], versions);
  return { resultType: 'complete', skill: entry };
}

/**
 * The entries with `metadata.version` where publish names one, in the frontmatter (where the Agent Skills
 * spec keeps a skill's version, not `_meta`), so an MCP host and the published artifact agree.
 */
async function withVersions(skills: readonly CatalogSkill[], versions: SkillVersions | undefined): Promise<SkillEntry[]> {
  const found = versions
    ? await versions(skills.map((s) => ({ name: String(s.entry.frontmatter.name), dir: s.dir })))
    : new Map<string, string>();
  return skills.map((s) => {
    const version = found.get(s.dir);
    if (version === undefined) return s.entry;
    const metadata = s.entry.frontmatter.metadata;
    const kept = typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) ? metadata : {};
    return { ...s.entry, frontmatter: { ...s.entry.frontmatter, metadata: { ...kept, version } } };
  });
}

function readDirectory(snapshot: Snapshot, params: Record<string, unknown>) {
  const uri = params.uri;
  if (typeof uri !== 'string') throw invalid('resources/directory/read needs params.uri: a directory such as skill://<skill-path>');
  const path = uri.startsWith(skillScheme) ? uri.slice(skillScheme.length) : undefined;
  const children = path === undefined || path.endsWith('/') ? undefined : childrenOf(snapshot.skills, path);
  if (!children) throw invalid(`${uri} is not a directory of a served skill (directories have no trailing slash)`);
  const page = paginate(children, (r) => r.uri, cursorOf(params.cursor), pageSize);
  return { resultType: 'complete', resources: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}

/** Direct children of `path`: inside a skill, its files and folders; above skills, the folders leading to them. */
function childrenOf(skills: readonly CatalogSkill[], path: string): Resource[] | undefined {
  const owner = skills.find((s) => path === s.skillPath || path.startsWith(`${s.skillPath}/`));
  const found = new Map<string, Resource>();
  if (owner) {
    const inner = path === owner.skillPath ? '' : path.slice(owner.skillPath.length + 1);
    for (const file of owner.files.values()) {
      const rest = inner === '' ? file.path : file.path.startsWith(`${inner}/`) ? file.path.slice(inner.length + 1) : undefined;
      if (rest === undefined) continue;
      const slash = rest.indexOf('/');
      if (slash < 0) found.set(file.uri, { uri: file.uri, name: rest, mimeType: mimeTypeOf(rest), size: file.size });
      else {
        const dir = rest.slice(0, slash);
        const dirUri = skillDirUri(owner.skillPath, inner === '' ? dir : `${inner}/${dir}`);
        found.set(dirUri, { uri: dirUri, name: dir, mimeType: directoryMime });
      }
    }
    return found.size > 0 || inner === '' ? sortByUri(found) : undefined;
  }
  for (const skill of skills) {
    if (!skill.skillPath.startsWith(`${path}/`)) continue;
    const next = skill.skillPath.slice(path.length + 1).split('/')[0] ?? '';
    const dirUri = `${skillScheme}${path}/${next}`;
    found.set(dirUri, { uri: dirUri, name: next, mimeType: directoryMime });
  }
  return found.size > 0 ? sortByUri(found) : undefined;
}

function sortByUri(found: Map<string, Resource>): Resource[] {
  return [...found.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
}

function cursorOf(cursor: unknown): string | undefined {
  if (cursor === undefined) return undefined;
  const after = typeof cursor === 'string' ? decodeCursor(cursor) : undefined;
  if (after === undefined) throw invalid('unknown cursor: pass back the nextCursor of the previous page, or none for the first');
  return after;
}

/** Text when the bytes are UTF-8 (kept byte for byte, BOM included), else undefined (served as a blob). */
function textOf(bytes: Buffer): string | undefined {
  if (looksBinary(bytes)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function invalid(message: string, data?: Record<string, unknown>): McpError {
  return new McpError(ErrorCode.InvalidParams, message, data);
}
