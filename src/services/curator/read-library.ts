import { existsSync, lstatSync, readdirSync, readFileSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { SkillgardenError } from '../../core/errors.js';
import type { Config } from '../../core/config/config.js';
import { emptyState, parseRecord, parseState, type CuratorState } from '../../core/config/state.js';
import { recordNameAt, stateFile, stateRecordDir } from '../../core/config/state-files.js';
import type { Finding } from '../../core/findings.js';
import { skillFileName } from '../../core/layout.js';
import type { HistoryIndex } from '../../core/ledger/history-index.js';
import { resolveProvenance, type LifecycleSkill } from '../../core/lifecycle/index.js';
import { withCommittedPatch, type UsageCounters } from '../../core/usage/index.js';
import { parseSkill } from '../../core/skill/index.js';
import { readHistoryIndex } from '../../ledger/history-index.js';
import { isPinnedInFile, parsePins, pinsFile } from '../../core/layout/pins.js';
import {
  libraryRoots,
  openLibrary,
  primaryRoot,
  renderEmptyLibrary,
  requireSkills,
  type DiscoveredLibrary,
  type LibraryLocation,
} from '../../store/layout/discover-library.js';
import { readUsageSnapshot, type UsageSnapshot } from '../../store/usage-files.js';
import { readProvenanceFiles } from '../../store/provenance-files.js';
import { findReferencedNames } from './references.js';
import { readConfig, requireConfig } from '../config-file.js';

export { configFile, readConfig, requireConfig } from '../config-file.js';
export { stateFile } from '../../core/config/state-files.js';

export interface LibrarySkill extends LifecycleSkill {
  location: LibraryLocation;
  /** Repository-relative folder. */
  dir: string;
  /** Adopted by an `adopt` commit or listed in `adopted.txt` (even without a time: `adoptedAt`). */
  adopted: boolean;
}

/** Everything a curator pass reads, gathered in one pass over the repository (no per-skill re-walks). */
export interface LibrarySnapshot {
  repoDir: string;
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

/** The curator's state as the working tree holds it; a corrupt file stops the command (`state/invalid`), naming it. */
export function readState(repoDir: string): CuratorState {
  const { state, findings } = readStateFiles(repoDir);
  if (findings.length > 0) {
    const first = findings[0]!;
    throw new SkillgardenError('state/invalid', `${first.file}: ${first.message}. ${first.hint}`, { data: { findings } });
  }
  return state;
}

/**
 * `.skillgarden/state.json` and, from version 2 on, each record in `.skillgarden/state/` (a version 1 file holds them
 * all: the records folder is not read then, and the next write replaces it). Every corrupt file is a finding.
 */
export function readStateFiles(repoDir: string): { state: CuratorState; findings: Finding[] } {
  const path = join(repoDir, stateFile);
  const run = existsSync(path) ? parseState(readFileSync(path, 'utf8'), stateFile) : { state: emptyState(), findings: [] };
  if (run.findings.length > 0 || run.state.version === 1) return run;
  const findings: Finding[] = [];
  const skills: CuratorState['skills'] = {};
  for (const file of readRecordFiles(repoDir)) {
    const name = recordNameAt(file);
    if (name === undefined) {
      findings.push({
        ...parseRecord('', file).findings[0]!,
        message: `not where a record goes: each is .skillgarden/state/<two hex digits of the SHA-1 of the name>/<the name encoded>.json (schemas/state.schema.json, $defs/record)`,
      });
      continue;
    }
    const parsed = parseRecord(readFileSync(join(repoDir, file), 'utf8'), file);
    findings.push(...parsed.findings);
    skills[name] = parsed.record;
  }
  return { state: { ...run.state, skills }, findings };
}

/** Every `.json` file in `.skillgarden/state/` and its folders (repository-relative), sorted. */
function readRecordFiles(repoDir: string): string[] {
  const files: string[] = [];
  for (const entry of listDir(join(repoDir, stateRecordDir))) {
    const path = `${stateRecordDir}/${entry.name}`;
    if (entry.isDirectory()) {
      for (const inner of listDir(join(repoDir, path)))
        if (inner.isFile() && inner.name.endsWith('.json')) files.push(`${path}/${inner.name}`);
    } else if (entry.isFile() && entry.name.endsWith('.json')) files.push(path);
  }
  return files.sort();
}

function listDir(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

const withLinks = (links: string[] | undefined) => (links ? { linkedFrom: links.sort() } : {});

/** The link itself: the alias's folder when it is one, else the SKILL.md inside it that is. */
function linkPath(location: { dir: string; path: string }): string {
  try {
    if (lstatSync(location.dir).isSymbolicLink()) return location.path;
  } catch {
    // Not readable: name the SKILL.md, which discovery found as a link.
  }
  return `${location.path}/${skillFileName}`;
}

export interface ReadLibraryOptions {
  now: Date;
  config?: Config;
  /**
   * Nothing silently empty: a library with no skill fails (`library/empty`), saying where discovery looked, unless
   * `allowEmpty`. A library whose every skill is archived is found: its run reports the archive.
   */
  requireSkills?: { allowEmpty?: boolean };
}

export async function readLibrary(repoDir: string, options: ReadLibraryOptions): Promise<LibrarySnapshot> {
  const config = options.config ?? requireConfig(repoDir);
  const state = readState(repoDir);
  const library = openLibrary(repoDir, config.skills_dir);
  if (options.requireSkills)
    requireSkills(library, { allowEmpty: (options.requireSkills.allowEmpty ?? false) || library.archived.length > 0 });
  const locations = library.skills;
  const archived = library.archived;
  // History, Hermes's files and usage cover every root of the one discovery.
  const roots = libraryRoots(library.layout);
  const { index: history } = await readHistoryIndex(repoDir, { skillsRoot: roots });
  const files = readProvenanceFiles(repoDir, roots);
  const usage = readUsageSnapshot(repoDir, { skillsDir: roots, now: options.now, skills: [...locations, ...archived].map((l) => l.id) });
  const pins = parsePins(readOptional(join(repoDir, pinsFile)));
  const names = new Set(locations.map((l) => l.name));
  const { referenced, files: referenceFiles } = findReferencedNames(repoDir, config.references, names);
  const linkedFrom = new Map<string, string[]>();
  for (const alias of library.aliases)
    linkedFrom.set(alias.target.path, [...(linkedFrom.get(alias.target.path) ?? []), linkPath(alias.location)]);
  const skills = locations.map((location): LibrarySkill => {
    const entry = history.skills[location.name];
    const { provenance, adopted, adoptedAt } = resolveProvenance(location.name, files, entry);
    return {
      name: location.name,
      location,
      dir: location.path,
      provenance,
      adopted,
      ...(adoptedAt ? { adoptedAt } : {}),
      pinned: pins.has(location.name) || readPinned(join(location.dir, skillFileName)),
      referenced: referenced.has(location.name),
      ...withLinks(linkedFrom.get(location.path)),
      ...(entry?.created.time ? { createdAt: entry.created.time } : {}),
      ...withRecordedPatch(usage.totals.get(location.id), entry?.lastPatched?.time),
      ...(state.skills[location.name] ? { record: state.skills[location.name] } : {}),
    };
  });
  return {
    repoDir,
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

/** Where a run proposes a new skill: the library's first root. */
export function readDraftsRoot(snapshot: LibrarySnapshot): string {
  return primaryRoot(snapshot.library.layout);
}

/**
 * Why a library cannot be curated (no skill, none escaped, none archived), saying where discovery looked; undefined
 * when it can. `skillsDir` overrides the config's setting (the Action's `skills-dir`).
 */
export function describeEmptyLibrary(repoDir: string, skillsDir?: string): string | undefined {
  const library = openLibrary(repoDir, skillsDir || readConfig(repoDir).config.skills_dir);
  const empty = library.skills.length === 0 && library.escaped.length === 0 && library.archived.length === 0;
  return empty ? renderEmptyLibrary(library) : undefined;
}

/**
 * The usage the lifecycle sees, with the last patch wherever it is recorded: a usage file, or only a
 * commit (an agent's patch, a person's plain git edit). The anchor is the latest of use, view and patch.
 */
function withRecordedPatch(counters: UsageCounters | undefined, committedAt: string | undefined): { usage?: UsageCounters } {
  const usage = withCommittedPatch(counters, committedAt);
  return usage === undefined ? {} : { usage };
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Pinned in the frontmatter (`pinned: true`, or in `metadata`). A quick text check first keeps the pass linear and cheap. */
export function readPinned(path: string): boolean {
  const text = readOptional(path);
  if (text === undefined || !/pinned:/.test(text)) return false;
  return isPinnedInFile(parseSkill(text, { file: skillFileName }));
}
