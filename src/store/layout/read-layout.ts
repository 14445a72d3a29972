import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Finding } from '../../core/findings.js';
import { defaultSkillsDir, skillFileName } from '../../core/layout.js';
import { manifestFinding, parseMarketplace, parsePluginManifest, type ManifestPath } from '../../core/layout/manifests.js';
import {
  agentPluginFile,
  agentSkillFolders,
  claudePluginFile,
  dedupeRoots,
  hasGlob,
  hermesMarkers,
  isInsideRepository,
  marketplaceFile,
  skillsDirEntries,
  type LibraryLayout,
  type ListedSkill,
  type SkillRoot,
} from '../../core/layout/skill-roots.js';
import { readDirUncached, type ReadDir } from '../dir-cache.js';
import { discoverSkills } from '../discover.js';
import { expandRootGlob, isFileAt, isFolderAt } from './expand-roots.js';

export interface LayoutRead {
  layout: LibraryLayout;
  /** Manifest problems and configured roots that do not exist. */
  findings: Finding[];
}

interface Builder {
  repoDir: string;
  readDir: ReadDir;
  roots: SkillRoot[];
  listed: ListedSkill[];
  manifests: string[];
  searched: string[];
  findings: Finding[];
}

/**
 * The library's skill roots: the `skills_dir` setting (a folder, a glob or a
 * list of them) or, with none, the layouts people use, detected.
 */
export function readLibraryLayout(
  repoDir: string,
  skillsDir: string | readonly string[] | undefined,
  readDir: ReadDir = readDirUncached,
): LayoutRead {
  const b: Builder = { repoDir, readDir, roots: [], listed: [], manifests: [], searched: [], findings: [] };
  const entries = skillsDirEntries(skillsDir);
  if (entries) {
    readConfigured(b, entries);
    // Manifests are part of the library even when skills_dir names the roots: they are still checked.
    const probe: Builder = { ...b, roots: [], listed: [], manifests: [], searched: [], findings: [] };
    detect(probe);
    b.manifests.push(...probe.manifests);
    b.findings.push(...probe.findings);
    // A configured root that is a plugin's skills folder still holds that plugin's skills (`plugin:skill`).
    const plugins = new Map(probe.roots.filter((r) => r.plugin !== undefined).map((r) => [r.path, r.plugin]));
    for (const root of b.roots) if (plugins.has(root.path)) root.plugin = plugins.get(root.path);
  } else detect(b);
  const layout: LibraryLayout = {
    roots: dedupeRoots(b.roots),
    listed: b.listed,
    manifests: [...new Set(b.manifests)],
    configured: entries !== undefined,
    searched: b.searched,
  };
  return { layout, findings: b.findings };
}

function readConfigured(b: Builder, entries: readonly string[]): void {
  for (const entry of entries) {
    if (!isInsideRepository(entry)) {
      b.findings.push(
        configFinding(`skills_dir entry "${entry}" leaves the repository`, 'Name folders inside the repository, relative to its root.'),
      );
      continue;
    }
    b.searched.push(`${entry || '.'}/ (skills_dir)`);
    if (hasGlob(entry)) {
      for (const path of expandRootGlob(b.repoDir, entry, b.readDir)) b.roots.push({ path, origin: 'config', via: entry });
    } else if (isFolderAt(b.repoDir, entry, b.readDir)) {
      b.roots.push({ path: entry, origin: 'config' });
    } else {
      b.findings.push(
        configFinding(`skills_dir entry "${entry}" is not a folder`, 'Create the folder, or fix skills_dir in .skillgarden/config.yaml.'),
      );
    }
  }
}

function detect(b: Builder): void {
  b.searched.push(`${defaultSkillsDir}/`);
  if (isFolderAt(b.repoDir, defaultSkillsDir, b.readDir)) b.roots.push({ path: defaultSkillsDir, origin: 'skills' });
  for (const folder of agentSkillFolders) {
    b.searched.push(`${folder.path}/ (${folder.agents})`);
    if (isFolderAt(b.repoDir, folder.path, b.readDir)) b.roots.push({ path: folder.path, origin: 'agent-folder', via: folder.agents });
  }
  b.searched.push(marketplaceFile);
  if (isFileAt(b.repoDir, marketplaceFile, b.readDir)) readMarketplace(b);
  for (const file of [claudePluginFile, agentPluginFile]) {
    b.searched.push(file);
    if (isFileAt(b.repoDir, file, b.readDir)) readPlugin(b, '', file, undefined);
  }
  b.searched.push('plugins/*/ (plugin.json, or a skills/ folder)');
  for (const plugin of expandRootGlob(b.repoDir, 'plugins/*', b.readDir)) {
    const manifests = [`${plugin}/${claudePluginFile}`, `${plugin}/${agentPluginFile}`].filter((f) => isFileAt(b.repoDir, f, b.readDir));
    for (const file of manifests) readPlugin(b, plugin, file, basename(plugin));
    // A plugin folder whose manifest is missing (a copy, a plugin still being written) still holds its skills where
    // Claude Code looks for them: counting them beats reporting an empty library.
    const skills = `${plugin}/skills`;
    const known = b.roots.some((r) => r.path === skills) || b.listed.some((l) => l.path.startsWith(`${skills}/`));
    if (manifests.length === 0 && !known && isFolderAt(b.repoDir, skills, b.readDir))
      b.roots.push({ path: skills, origin: 'plugin', via: `${plugin}/ (no plugin.json)`, plugin: basename(plugin) });
  }
  b.searched.push(`./ (Hermes: ${hermesMarkers.join(', ')})`);
  const hermes = hermesMarkers.some((m) => isFileAt(b.repoDir, m, b.readDir) || isFolderAt(b.repoDir, m, b.readDir));
  if (hermes) b.roots.push({ path: '', origin: 'hermes', via: 'Hermes Agent' });
  else if (b.roots.length === 0 && b.listed.length === 0) {
    // A bare collection is the repository itself (`<category>/<name>/SKILL.md`); a new library starts in `skills/`.
    b.searched.push('./ (skills at the top of the repository)');
    const bare = discoverSkills(b.repoDir, { readDir: b.readDir, maxFolders: 20_000 }).length > 0;
    b.roots.push(bare ? { path: '', origin: 'skills', via: 'the repository root' } : { path: defaultSkillsDir, origin: 'skills' });
  }
}

function readMarketplace(b: Builder): void {
  b.manifests.push(marketplaceFile);
  const parsed = parseMarketplace(readText(b, marketplaceFile), marketplaceFile, '');
  b.findings.push(...parsed.findings);
  for (const plugin of parsed.manifest ?? []) {
    const source = plugin.source;
    if (!source) continue;
    if (source.path === undefined || !isFolderAt(b.repoDir, source.path, b.readDir)) {
      b.findings.push(missingPath(marketplaceFile, source, `plugin "${plugin.name ?? '?'}" source`));
      continue;
    }
    const name = plugin.name ?? basename(source.path);
    if (plugin.skills) addListed(b, marketplaceFile, plugin.skills, name);
    else {
      const manifest = [`${prefix(source.path)}${claudePluginFile}`, `${prefix(source.path)}${agentPluginFile}`].find((f) =>
        isFileAt(b.repoDir, f, b.readDir),
      );
      if (manifest) readPlugin(b, source.path, manifest, name);
      else addDefaultSkills(b, source.path, 'marketplace', marketplaceFile, name);
    }
  }
}

/** `fallbackName`: the marketplace entry's or the folder's, for a manifest without a name. */
function readPlugin(b: Builder, pluginRoot: string, file: string, fallbackName: string | undefined): void {
  if (b.manifests.includes(file)) return;
  b.manifests.push(file);
  const kind = file.endsWith(claudePluginFile) ? 'claude-code' : 'agent-plugins';
  const parsed = parsePluginManifest(readText(b, file), file, { pluginRoot, kind });
  b.findings.push(...parsed.findings);
  // Claude Code's custom skill paths add to the default `skills/` folder; Agent Plugins has only that folder.
  const name = parsed.manifest?.name ?? fallbackName;
  if (parsed.manifest?.skills) addListed(b, file, parsed.manifest.skills, name);
  addDefaultSkills(b, pluginRoot, 'plugin', file, name, parsed.manifest?.skills !== undefined);
}

/**
 * A plugin's `skills/` folder; without one (and without a `skills` field), Claude Code loads a SKILL.md at the
 * plugin's root as its single skill (plugins reference, checked 2026-12).
 */
function addDefaultSkills(
  b: Builder,
  pluginRoot: string,
  origin: 'marketplace' | 'plugin',
  via: string,
  plugin: string | undefined,
  listsSkills = false,
): void {
  const path = `${prefix(pluginRoot)}skills`;
  const named = plugin === undefined ? {} : { plugin };
  if (isFolderAt(b.repoDir, path, b.readDir)) b.roots.push({ path, origin, via, ...named });
  else if (!listsSkills && pluginRoot !== '' && isFileAt(b.repoDir, `${pluginRoot}/${skillFileName}`, b.readDir))
    b.listed.push({ path: pluginRoot, manifest: via, line: 1, ...named });
}

/** A listed path is a skill (it holds SKILL.md) or a folder of skills; anything else is an error on its line. */
function addListed(b: Builder, manifest: string, paths: readonly ManifestPath[], plugin: string | undefined): void {
  const named = plugin === undefined ? {} : { plugin };
  for (const entry of paths) {
    if (entry.path !== undefined && isFileAt(b.repoDir, `${prefix(entry.path)}${skillFileName}`, b.readDir)) {
      b.listed.push({ path: entry.path, manifest, line: entry.line, ...named });
    } else if (entry.path !== undefined && isFolderAt(b.repoDir, entry.path, b.readDir)) {
      b.roots.push({ path: entry.path, origin: 'plugin', via: manifest, ...named });
    } else {
      b.findings.push(missingPath(manifest, entry, 'listed skill'));
    }
  }
}

function missingPath(manifest: string, entry: ManifestPath, what: string): Finding {
  const outside = entry.path === undefined;
  return manifestFinding(
    manifest,
    entry.line,
    outside ? 'manifest/path-escapes' : 'manifest/missing-path',
    outside ? `${what} "${entry.written}" leaves the repository` : `${what} "${entry.written}" does not exist (${entry.path})`,
    outside ? 'Name a folder inside the repository.' : 'Fix the path, or add the folder it names.',
  );
}

function readText(b: Builder, file: string): string {
  try {
    return readFileSync(join(b.repoDir, file), 'utf8');
  } catch {
    return '';
  }
}

function prefix(path: string): string {
  return path === '' ? '' : `${path}/`;
}

function configFinding(message: string, hint: string): Finding {
  return manifestFinding('.skillgarden/config.yaml', 1, 'config/skills-dir', message, hint);
}
