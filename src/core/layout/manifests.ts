import type { Finding } from '../findings.js';
import { parseJsonWithLines, type LocatedJson } from './json-lines.js';
import { manifestFinding } from './manifest-finding.js';
import { checkAgentPlugin, checkClaudePlugin, pluginDialect, type PluginDialect, type PluginManifestPlace } from './plugin-rules.js';
import { joinRepoPath } from './skill-roots.js';

/** A path a manifest names, resolved against the repository, with the line that names it. */
export interface ManifestPath {
  /** As written. */
  written: string;
  /** Repository-relative; undefined when it leaves the repository. */
  path: string | undefined;
  line: number;
}

export interface MarketplacePlugin {
  name: string | undefined;
  line: number;
  /** Local source folder; undefined for a remote source (github, url, npm), which is not part of this repository. */
  source: ManifestPath | undefined;
  /** The entry's own `skills` paths (relative to the source), when it lists them. */
  skills: ManifestPath[] | undefined;
}

export interface PluginManifest {
  name: string | undefined;
  /** `skills` paths of a Claude Code plugin.json (relative to the plugin root). */
  skills: ManifestPath[] | undefined;
}

export { manifestFinding };
export { agentPluginsSchemaIds, pluginDialect, type PluginDialect, type PluginManifestPlace } from './plugin-rules.js';

export interface ManifestParse<T> {
  manifest: T | undefined;
  findings: Finding[];
}

/**
 * Claude Code's `.claude-plugin/marketplace.json` (code.claude.com/docs plugin
 * marketplaces): `plugins[]` with `name` and `source`, a relative source
 * resolved against the marketplace root (after `metadata.pluginRoot` for a
 * bare name), and optional `skills` paths relative to that source.
 */
export function parseMarketplace(text: string, file: string, marketplaceRoot: string): ManifestParse<MarketplacePlugin[]> {
  const parsed = parseManifestJson(text, file);
  if (!parsed.json) return { manifest: undefined, findings: parsed.findings };
  const { json } = parsed;
  const findings: Finding[] = [];
  const data = json.value as { plugins?: unknown; metadata?: { pluginRoot?: unknown } };
  if (!Array.isArray(data.plugins)) {
    findings.push(
      manifestFinding(
        file,
        json.lineOf([]),
        'manifest/invalid',
        '"plugins" must be a list of plugin entries',
        'See Claude Code\'s marketplace reference: {"name", "owner", "plugins": [{"name", "source"}]}.',
      ),
    );
    return { manifest: undefined, findings };
  }
  const pluginRoot = typeof data.metadata?.pluginRoot === 'string' ? data.metadata.pluginRoot : undefined;
  const plugins = data.plugins.map((entry: unknown, index): MarketplacePlugin => {
    const at = (...rest: (string | number)[]) => json.lineOf(['plugins', index, ...rest]);
    const record = (entry ?? {}) as { name?: unknown; source?: unknown; skills?: unknown };
    const name = typeof record.name === 'string' ? record.name : undefined;
    if (name === undefined)
      findings.push(
        manifestFinding(file, at(), 'manifest/invalid', `plugins[${index}] has no "name"`, 'Give every plugin a kebab-case name.'),
      );
    let source: ManifestPath | undefined;
    if (typeof record.source === 'string') {
      const written = pluginRoot && !/^\.{1,2}\//.test(record.source) ? `${pluginRoot}/${record.source}` : record.source;
      source = { written: record.source, path: joinRepoPath(marketplaceRoot, written), line: at('source') };
    } else if (record.source === undefined) {
      findings.push(
        manifestFinding(
          file,
          at(),
          'manifest/invalid',
          `plugin "${name ?? index}" has no "source"`,
          'Set "source" to the plugin folder, e.g. "./plugins/NAME".',
        ),
      );
    }
    const skills = readPaths(record.skills, source?.path ?? marketplaceRoot, (i) => (i < 0 ? at('skills') : at('skills', i)));
    return { name, line: at(), source, skills };
  });
  findings.push(...duplicateNames(plugins, file));
  return { manifest: plugins, findings };
}

/**
 * A plugin manifest, checked by the rules of its dialect (`pluginDialect`;
 * `dialect` forces one, as publish does for the Agent Plugin it writes).
 */
export function parsePluginManifest(
  text: string,
  file: string,
  options: { pluginRoot: string; kind: PluginManifestPlace; dialect?: PluginDialect },
): ManifestParse<PluginManifest> {
  const parsed = parseManifestJson(text, file);
  if (!parsed.json) return { manifest: undefined, findings: parsed.findings };
  const { json } = parsed;
  const data = (json.value ?? {}) as Record<string, unknown>;
  const findings: Finding[] = [];
  const name = typeof data.name === 'string' ? data.name : undefined;
  if (name === undefined)
    findings.push(
      manifestFinding(file, 1, 'manifest/invalid', 'plugin.json has no "name"', 'Add "name": the plugin\'s kebab-case identifier.'),
    );
  const dialect = options.dialect ?? pluginDialect(data, options.kind);
  findings.push(...(dialect === 'agent-plugins' ? checkAgentPlugin(data, json, file, name) : checkClaudePlugin(data, json, file, name)));
  // Claude Code reads `skills` only from `.claude-plugin/plugin.json`; elsewhere the paths are another tool's.
  const skills =
    options.kind === 'claude-code'
      ? readPaths(data.skills, options.pluginRoot, (i) => json.lineOf(i < 0 ? ['skills'] : ['skills', i]))
      : undefined;
  return { manifest: { name, skills }, findings };
}

function readPaths(value: unknown, base: string, lineOf: (index: number) => number): ManifestPath[] | undefined {
  if (value === undefined) return undefined;
  const list: unknown[] = typeof value === 'string' ? [value] : Array.isArray(value) ? (value as unknown[]) : [];
  return list
    .map((written: unknown, index) => ({ written, index }))
    .filter((p): p is { written: string; index: number } => typeof p.written === 'string')
    .map(({ written, index }) => ({ written, path: joinRepoPath(base, written), line: lineOf(typeof value === 'string' ? -1 : index) }));
}

function duplicateNames(plugins: readonly MarketplacePlugin[], file: string): Finding[] {
  const first = new Map<string, MarketplacePlugin>();
  const findings: Finding[] = [];
  for (const plugin of plugins) {
    if (plugin.name === undefined) continue;
    const earlier = first.get(plugin.name);
    if (!earlier) first.set(plugin.name, plugin);
    else
      findings.push(
        manifestFinding(
          file,
          plugin.line,
          'manifest/duplicate-name',
          `plugin name "${plugin.name}" is used twice (lines ${earlier.line} and ${plugin.line})`,
          'Plugin names must be unique in a marketplace: rename one.',
        ),
      );
  }
  return findings;
}

function parseManifestJson(text: string, file: string): { json?: LocatedJson; findings: Finding[] } {
  const parsed = parseJsonWithLines(text);
  if (!parsed.ok)
    return {
      findings: [manifestFinding(file, parsed.line, 'manifest/json-syntax', `not valid JSON: ${parsed.message}`, 'Fix the JSON syntax.')],
    };
  if (typeof parsed.json.value !== 'object' || parsed.json.value === null || Array.isArray(parsed.json.value)) {
    return {
      findings: [manifestFinding(file, 1, 'manifest/invalid', 'a manifest must be a JSON object', 'Write {"name": …} at the top level.')],
    };
  }
  return { json: parsed.json, findings: [] };
}
