import { excerpt, type Finding } from '../findings.js';
import type { LocatedJson } from './json-lines.js';
import { manifestFinding } from './manifest-finding.js';

/** Where a plugin.json sits: `.claude-plugin/plugin.json` (Claude Code's place) or `plugin.json` at the plugin root. */
export type PluginManifestPlace = 'claude-code' | 'agent-plugins';
export type PluginDialect = 'claude-code' | 'agent-plugins';

/**
 * The rules a plugin.json answers to: Agent Plugins 1.0 when its `$schema`
 * names agent-plugins.org (the spec makes the identifier mandatory), else
 * Claude Code's, whose plugin.json has no `$schema` (a root plugin.json
 * without one is a Claude Code or Codex style manifest, not a broken Agent Plugin).
 */
export function pluginDialect(data: Record<string, unknown>, place: PluginManifestPlace): PluginDialect {
  if (place === 'claude-code') return 'claude-code';
  return typeof data.$schema === 'string' && data.$schema.startsWith('https://agent-plugins.org/') ? 'agent-plugins' : 'claude-code';
}

/** Claude Code's component paths: a string or a list of strings (hooks and servers may also be inline objects). */
const claudePathFields = ['commands', 'agents', 'skills', 'outputStyles'];
const claudeConfigFields = ['hooks', 'mcpServers', 'lspServers'];
/** Claude Code's plugin name: kebab-case (code.claude.com/docs plugins reference). */
const claudePluginName = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Claude Code's plugin.json: lenient, as Claude Code is: unknown fields are other tools' and pass. */
export function checkClaudePlugin(data: Record<string, unknown>, json: LocatedJson, file: string, name: string | undefined): Finding[] {
  const findings: Finding[] = [];
  if (name !== undefined && !claudePluginName.test(name))
    findings.push(
      manifestFinding(
        file,
        json.lineOf(['name']),
        'manifest/plugin-name',
        `plugin name "${excerpt(name)}" is not kebab-case`,
        'Claude Code names plugins with lowercase letters, digits and single hyphens, e.g. "code-review".',
        'warning',
      ),
    );
  for (const key of claudePathFields) {
    const value = data[key];
    if (value === undefined || typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'))) continue;
    findings.push(
      manifestFinding(
        file,
        json.lineOf([key]),
        'manifest/invalid',
        `"${key}" must be a path or a list of paths`,
        'Write e.g. "./custom/"; paths are relative to the plugin root.',
      ),
    );
  }
  for (const key of claudeConfigFields) {
    const value = data[key];
    if (value === undefined || typeof value === 'string' || (typeof value === 'object' && value !== null)) continue;
    findings.push(
      manifestFinding(
        file,
        json.lineOf([key]),
        'manifest/invalid',
        `"${key}" must be a path or an object`,
        'Name a JSON file (e.g. "./hooks/hooks.json") or write the configuration inline.',
      ),
    );
  }
  return findings;
}

export const agentPluginsSchemaIds: readonly string[] = [
  'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json',
  'https://agent-plugins.org/schemas/1.1.0/plugin.schema.json',
];
const agentPluginFields = new Set([
  '$schema',
  'name',
  'version',
  'description',
  'author',
  'homepage',
  'repository',
  'license',
  'keywords',
  'extensions',
]);
/** Agent Plugins 1.0 §5: 1–64 of lowercase letters, digits, `-` and `.`, alphanumeric at both ends, no `--` or `..`. */
const agentPluginName = /^(?!.*(--|\.\.))[a-z0-9]([a-z0-9.-]{0,62}[a-z0-9])?$/;

export function checkAgentPlugin(data: Record<string, unknown>, json: LocatedJson, file: string, name: string | undefined): Finding[] {
  const findings: Finding[] = [];
  if (typeof data.$schema !== 'string' || !agentPluginsSchemaIds.includes(data.$schema)) {
    findings.push(
      manifestFinding(
        file,
        json.lineOf(['$schema']),
        'manifest/invalid',
        `"$schema" must be ${agentPluginsSchemaIds[0]}`,
        'Agent Plugins clients reject a plugin.json without the exact schema identifier.',
      ),
    );
  }
  if (name !== undefined && !agentPluginName.test(name)) {
    findings.push(
      manifestFinding(
        file,
        json.lineOf(['name']),
        'manifest/invalid',
        `plugin name "${excerpt(name)}" is not 1–64 lowercase letters, digits, "-" or "."`,
        'Start and end with a letter or digit; no "--" or "..".',
      ),
    );
  }
  for (const key of Object.keys(data)) {
    if (agentPluginFields.has(key)) continue;
    findings.push(
      manifestFinding(
        file,
        json.lineOf([key]),
        'manifest/unknown-field',
        `unknown plugin.json field "${excerpt(key)}": clients report and ignore it`,
        `Agent Plugins 1.0 allows: ${[...agentPluginFields].join(', ')}; put client settings under "extensions".`,
        'warning',
      ),
    );
  }
  return findings;
}
