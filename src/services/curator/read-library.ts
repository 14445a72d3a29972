import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkillgardenError } from '../../core/errors.js';
import { defaultConfig, parseConfig, type Config } from '../../core/config/config.js';
import { emptyState, parseState, type CuratorState } from '../../core/config/state.js';
import type { Finding } from '../../core/findings.js';
import { metaDir, skillFileName } from '../../core/layout.js';
import type { HistoryIndex } from '../../core/ledger/history-index.js';
import type { LifecycleSkill, Provenance } from '../../core/lifecycle/types.js';
import { parseSkill } from '../../core/skill/index.js';
import { readHistoryIndex } from '../../ledger/history-index.js';
import { isPinnedInFile, parsePins, pinsFile } from '../../core/layout/pins.js';
import { openLibrary, primaryRoot, type DiscoveredLibrary, type LibraryLocation } from '../../store/layout/discover-library.js';
import { readUsageSnapshot, type UsageSnapshot } from '../../store/usage-files.js';
import { readProvenanceFiles } from './provenance-files.js';
import { findReferencedNames } from './references.js';

export const configFile = `${metaDir}/config.yaml`;
export const stateFile = `${metaDir}/state.json`;

export interface LibrarySkill extends LifecycleSkill {
  location: LibraryLocation;
  /** Repository-relative folder. */
  dir: string;
}

/** Everything a curator pass reads, gathered in one pass over the repository (no per-skill re-walks). */
export interface LibrarySnapshot {
  config: Config;
  state: CuratorState;
  skills: LibrarySkill[];
  archived: LibraryLocation[];
  /** The layout every command shares. */
  library: DiscoveredLibrary;
  history: HistoryIndex;
  usage: UsageSnapshot;
  referenceFiles: string[];
  findings: Finding[];
}

export function readConfig(repoDir: string): { config: Config; findings: Finding[] } {
  const path = join(repoDir, configFile);
  if (!existsSync(path)) return { config: { ...defaultConfig }, findings: [] };
  return parseConfig(readFileSync(path, 'utf8'), configFile);
}

/** The config, or a clear error naming every bad key: never a silent fallback to defaults. */
export function requireConfig(repoDir: string): Config {
  const { config, findings } = readConfig(repoDir);
  if (findings.length > 0) {
    const lines = findings.map((f) => `  ${f.file}:${f.line} ${f.message} (${f.hint})`);
    throw new SkillgardenError('config/invalid', `${configFile} is invalid:\n${lines.join('\n')}`, { data: { findings } });
  }
  return config;
}

export function readState(repoDir: string): CuratorState {
  const path = join(repoDir, stateFile);
  if (!existsSync(path)) return emptyState();
  const { state, findings } = parseState(readFileSync(path, 'utf8'), stateFile);
  if (findings.length > 0) {
    throw new SkillgardenError('state/invalid', `${stateFile}: ${findings[0]?.message}. ${findings[0]?.hint}`, { data: { findings } });
  }
  return state;
}

export async function readLibrary(repoDir: string, options: { now: Date; config?: Config }): Promise<LibrarySnapshot> {
  const config = options.config ?? requireConfig(repoDir);
  const state = readState(repoDir);
  const library = openLibrary(repoDir, config.skills_dir);
  const locations = library.skills;
  const archived = library.archived;
  // History, Hermes's files and rollback work on one root: the library's first.
  const primary = primaryRoot(library.layout);
  const { index: history } = await readHistoryIndex(repoDir, { skillsRoot: primary });
  const files = readProvenanceFiles(repoDir, primary);
  const usage = readUsageSnapshot(repoDir, { skillsDir: primary, now: options.now });
  const pins = parsePins(readOptional(join(repoDir, pinsFile)));
  const names = new Set(locations.map((l) => l.name));
  const { referenced, files: referenceFiles } = findReferencedNames(repoDir, config.references, names);
  const skills = locations.map((location): LibrarySkill => {
    const entry = history.skills[location.name];
    const provenance: Provenance = files.bundled.has(location.name)
      ? 'bundled'
      : files.hub.has(location.name)
        ? 'hub'
        : (entry?.provenance ?? 'user');
    const adoptedAt = entry?.adopted?.time ?? (files.adopted.has(location.name) ? entry?.created.time : undefined);
    return {
      name: location.name,
      location,
      dir: location.path,
      provenance,
      ...(adoptedAt ? { adoptedAt } : {}),
      pinned: pins.has(location.name) || readPinned(location.dir),
      referenced: referenced.has(location.name),
      ...(entry?.created.time ? { createdAt: entry.created.time } : {}),
      ...(usage.totals.has(location.name) ? { usage: usage.totals.get(location.name) } : {}),
      ...(state.skills[location.name] ? { record: state.skills[location.name] } : {}),
    };
  });
  return {
    config,
    state,
    skills,
    archived,
    library,
    history,
    usage,
    referenceFiles,
    findings: [...library.findings, ...files.findings, ...usage.findings],
  };
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Pinned in the frontmatter (`pinned: true`, or in `metadata`). A quick text check first keeps the pass linear and cheap. */
function readPinned(dir: string): boolean {
  const text = readOptional(join(dir, skillFileName));
  if (text === undefined || !/pinned:/.test(text)) return false;
  return isPinnedInFile(parseSkill(text, { file: skillFileName }));
}
