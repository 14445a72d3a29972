import { SkillgardenError } from '../../core/errors.js';
import type { Finding } from '../../core/findings.js';
import {
  artifactFor,
  buildDiscoveryIndex,
  publishedNames,
  renderChangelog,
  wellKnownDir,
  type DiscoveryIndex,
  type IndexEntry,
  type SkillChange,
} from '../../core/publish/discovery-index.js';
import { parseSkillBytes, setField, stringField } from '../../core/skill/index.js';
import type { Ledger } from '../../ledger/ledger.js';
import { replaceFolders } from '../../store/files.js';
import { openLibrary, requireSkills } from '../../store/layout/discover-library.js';
import { runValidate } from '../validate.js';
import { agentPluginsDir, stageAgentPlugin, type AgentPluginOptions, type PluginSkill } from './agent-plugin.js';
import { buildTarGz } from './tar.js';
import { pinnedCommits, readPublishedFiles, readSkillVersion, sha256 } from './skill-version.js';

export interface PublishOptions {
  repoDir: string;
  /** The `skills_dir` setting (undefined: the layout detected). */
  skillsDir: string | readonly string[] | undefined;
  ledger: Ledger;
  out: string;
  /** Also write a Claude Code marketplace (`.claude-plugin/marketplace.json`) with one plugin per skill. */
  marketplace?: { name: string; owner: string };
  /** Also write the library as one Agent Plugins 1.0 package (`agent-plugins/<name>/plugin.json`, its skills under `skills/`). */
  agentPlugin?: AgentPluginOptions;
}

export interface PublishedSkill {
  name: string;
  type: IndexEntry['type'];
  version: string;
  digest: string;
  files: number;
}

export type PublishResult =
  | { ok: true; index: DiscoveryIndex; skills: PublishedSkill[]; written: string[] }
  /** `checked`: how many skills were validated (the findings are their errors). */
  | { ok: false; findings: Finding[]; checked: number };

/**
 * `publish --out DIR`: the discovery index and the artifacts it points at,
 * each published SKILL.md carrying `metadata.version` (moved by every commit
 * that changed the skill) and a change log from the ledger. Nothing is
 * written when a skill has errors; the output replaces the old one whole.
 */
export async function publishLibrary(options: PublishOptions): Promise<PublishResult> {
  const library = requireSkills(openLibrary(options.repoDir, options.skillsDir));
  const report = runValidate({ cwd: options.repoDir, library });
  const errors = report.findings.filter((f) => f.severity === 'error');
  if (errors.length > 0) return { ok: false, findings: errors, checked: report.skills };
  const staged = new Map<string, Uint8Array | string>();
  const entries: IndexEntry[] = [];
  const skills: PublishedSkill[] = [];
  const plugins: { name: string; description: string; version: string }[] = [];
  const pluginSkills: PluginSkill[] = [];
  const pinned = pinnedCommits(options.repoDir);
  const names = publishedNames(library.skills);
  for (const location of library.skills) {
    const name = names.get(location.id) ?? location.name;
    const files = readPublishedFiles(location.dir);
    const relDir = location.path;
    const { version, history, dirtyDigest } = await readSkillVersion({
      repoDir: options.repoDir,
      ledger: options.ledger,
      relDir,
      files,
      pinned: pinned(location.name),
    });
    const skillFile = files.get('SKILL.md') ?? new Uint8Array();
    const parsed = parseSkillBytes(skillFile, { file: `${relDir}/SKILL.md` });
    const description = stringField(parsed, 'description') ?? '';
    const renamed =
      name === location.name ? parsed : parseSkillBytes(Buffer.from(setField(parsed, ['name'], name)), { file: `${relDir}/SKILL.md` });
    files.set('SKILL.md', Buffer.from(setField(renamed, ['metadata', 'version'], version)));
    const artifact = artifactFor(name, [...files.keys()]);
    const bytes =
      artifact.type === 'skill-md'
        ? (files.get('SKILL.md') as Uint8Array)
        : buildTarGz([...files].map(([path, b]) => ({ path, bytes: b })));
    staged.set(artifact.path, bytes);
    staged.set(`${wellKnownDir}/${name}/CHANGELOG.md`, renderChangelog(name, history));
    const digest = sha256(bytes);
    entries.push({ name: name, type: artifact.type, description, url: `/${artifact.path}`, digest });
    skills.push({ name: name, type: artifact.type, version, digest, files: files.size });
    if (options.marketplace) {
      plugins.push({ name: name, description, version });
      stagePlugin(staged, name, description, version, files, history);
    }
    if (options.agentPlugin) pluginSkills.push({ name: name, files, history, dirtyDigest });
  }
  if (options.agentPlugin) stageAgentPlugin(staged, options.agentPlugin, pluginSkills);
  const index = buildDiscoveryIndex(entries);
  staged.set(`${wellKnownDir}/index.json`, `${JSON.stringify(index, null, 2)}\n`);
  if (options.marketplace) staged.set('.claude-plugin/marketplace.json', renderMarketplace(options.marketplace, plugins));
  const tops = [
    wellKnownDir,
    ...(options.marketplace ? ['.claude-plugin', 'plugins'] : []),
    ...(options.agentPlugin ? [agentPluginsDir] : []),
  ];
  const written = writeStaged(options.out, staged, tops);
  return { ok: true, index, skills, written };
}

/** A Claude Code plugin per skill: `plugins/<name>/.claude-plugin/plugin.json` and the skill under its `skills/`. */
function stagePlugin(
  staged: Map<string, Uint8Array | string>,
  name: string,
  description: string,
  version: string,
  files: ReadonlyMap<string, Uint8Array>,
  history: readonly SkillChange[],
): void {
  const manifest = `${JSON.stringify({ name, description, version }, null, 2)}\n`;
  staged.set(`plugins/${name}/.claude-plugin/plugin.json`, manifest);
  staged.set(`plugins/${name}/CHANGELOG.md`, renderChangelog(name, history));
  for (const [path, bytes] of files) staged.set(`plugins/${name}/skills/${name}/${path}`, bytes);
}

function renderMarketplace(
  marketplace: { name: string; owner: string },
  plugins: readonly { name: string; description: string; version: string }[],
): string {
  const list = plugins.map((p) => ({ name: p.name, source: `./plugins/${p.name}`, description: p.description, version: p.version }));
  return `${JSON.stringify({ name: marketplace.name, owner: { name: marketplace.owner }, plugins: list }, null, 2)}\n`;
}

/** The output folders replaced whole (`replaceFolders`): a failed run leaves the old output as it was. */
function writeStaged(out: string, staged: ReadonlyMap<string, Uint8Array | string>, tops: readonly string[]): string[] {
  try {
    return replaceFolders(out, staged, tops);
  } catch (error) {
    throw new SkillgardenError('publish/write-failed', `cannot write the published library to ${out}: ${(error as Error).message}`, {
      data: { out },
      cause: error,
    });
  }
}
