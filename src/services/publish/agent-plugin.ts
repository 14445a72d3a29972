import { createHash } from 'node:crypto';
import { SkillgardenError } from '../../core/errors.js';
import { agentPluginsSchemaIds, parsePluginManifest } from '../../core/layout/manifests.js';
import { versionOf, type SkillChange } from '../../core/publish/discovery-index.js';

/** One published skill, as the Agent Plugin packs it. */
export interface PluginSkill {
  name: string;
  files: ReadonlyMap<string, Uint8Array>;
  history: readonly SkillChange[];
  /** Set while the working copy differs from HEAD. */
  dirtyDigest: string | undefined;
}

export interface AgentPluginOptions {
  name: string;
  /** The plugin's author, when given. */
  owner?: string;
}

/** Where the plugin goes in the output: a folder of plugins, each named for its plugin (clients take the folder name as its id). */
export const agentPluginsDir = 'agent-plugins';

/**
 * The library as one Agent Plugins 1.0 package (agent-plugins.org
 * specification 1.0.0): `plugin.json` with the exact `$schema` identifier and
 * a name, and each skill one level under `skills/`. Its version moves with
 * every commit that changed any of its skills, as each skill's does. The
 * manifest goes through the validator `validate` uses for Agent Plugins
 * manifests before anything is written.
 */
export function stageAgentPlugin(
  staged: Map<string, Uint8Array | string>,
  options: AgentPluginOptions,
  skills: readonly PluginSkill[],
): void {
  const commits = new Map<string, SkillChange>();
  for (const skill of skills) for (const change of skill.history) commits.set(change.commit, change);
  const dirty = skills.flatMap((s) => (s.dirtyDigest === undefined ? [] : [`${s.name}:${s.dirtyDigest}`]));
  const digest = createHash('sha256').update(dirty.join('\n')).digest('hex');
  const version = versionOf([...commits.values()], dirty.length > 0 ? { digest } : undefined);
  const names = skills.map((s) => s.name);
  const manifest = {
    $schema: agentPluginsSchemaIds[0],
    name: options.name,
    version,
    description: describe(names),
    ...(options.owner === undefined ? {} : { author: { name: options.owner } }),
    keywords: ['agent-skills'],
  };
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  const root = `${agentPluginsDir}/${options.name}`;
  const problems = parsePluginManifest(text, `${root}/plugin.json`, {
    pluginRoot: root,
    kind: 'agent-plugins',
    dialect: 'agent-plugins',
  }).findings;
  if (problems.length > 0) {
    const what = problems.map((f) => `${f.message} (${f.hint})`).join('; ');
    throw new SkillgardenError('publish/invalid-plugin', `--agent-plugin "${options.name}": the plugin.json would be rejected: ${what}`, {
      data: { name: options.name, findings: problems },
    });
  }
  staged.set(`${root}/plugin.json`, text);
  for (const skill of skills) for (const [path, bytes] of skill.files) staged.set(`${root}/skills/${skill.name}/${path}`, bytes);
}

function describe(names: readonly string[]): string {
  const listed = names.length <= 5 ? names.join(', ') : `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`;
  return `${names.length} Agent Skill${names.length === 1 ? '' : 's'}: ${listed}`;
}
