import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkillgardenError } from '../../core/errors.js';
import type { Config } from '../../core/config/config.js';
import { emptyState, parseState, type CuratorState } from '../../core/config/state.js';
import type { Finding } from '../../core/findings.js';
import { archiveDirName, metaDir, skillFileName } from '../../core/layout.js';
import type { HistoryIndex } from '../../core/ledger/history-index.js';
import { resolveProvenance, type LifecycleSkill } from '../../core/lifecycle/index.js';
import { parseSkill } from '../../core/skill/index.js';
import { readHistoryIndex } from '../../ledger/history-index.js';
import { discoverSkills, type SkillLocation } from '../../store/discover.js';
import { readUsageSnapshot, type UsageSnapshot } from '../../store/usage-files.js';
import { readProvenanceFiles } from '../../store/provenance-files.js';
import { findReferencedNames } from './references.js';
import { requireConfig } from '../config-file.js';

export { configFile, readConfig, requireConfig } from '../config-file.js';
export const stateFile = `${metaDir}/state.json`;

export interface LibrarySkill extends LifecycleSkill {
  location: SkillLocation;
  /** Repository-relative folder. */
  dir: string;
}

/** Everything a curator pass reads, gathered in one pass over the repository (no per-skill re-walks). */
export interface LibrarySnapshot {
  config: Config;
  state: CuratorState;
  skills: LibrarySkill[];
  archived: SkillLocation[];
  history: HistoryIndex;
  usage: UsageSnapshot;
  referenceFiles: string[];
  findings: Finding[];
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
  const root = join(repoDir, config.skills_dir);
  const locations = discoverSkills(root);
  const archived = existsSync(join(root, archiveDirName)) ? discoverSkills(join(root, archiveDirName)) : [];
  const { index: history } = await readHistoryIndex(repoDir, { skillsRoot: config.skills_dir });
  const files = readProvenanceFiles(repoDir, config.skills_dir);
  const usage = readUsageSnapshot(repoDir, { skillsDir: config.skills_dir, now: options.now });
  const names = new Set(locations.map((l) => l.name));
  const { referenced, files: referenceFiles } = findReferencedNames(repoDir, config.references, names);
  const skills = locations.map((location): LibrarySkill => {
    const entry = history.skills[location.name];
    const { provenance, adoptedAt } = resolveProvenance(location.name, files, entry);
    return {
      name: location.name,
      location,
      dir: `${config.skills_dir}/${location.relativeDir}`,
      provenance,
      ...(adoptedAt ? { adoptedAt } : {}),
      pinned: readPinned(location.dir),
      referenced: referenced.has(location.name),
      ...(entry?.created.time ? { createdAt: entry.created.time } : {}),
      ...(usage.totals.has(location.name) ? { usage: usage.totals.get(location.name) } : {}),
      ...(state.skills[location.name] ? { record: state.skills[location.name] } : {}),
    };
  });
  return { config, state, skills, archived, history, usage, referenceFiles, findings: [...files.findings, ...usage.findings] };
}

/** `pinned: true` in the frontmatter. A quick text check first keeps the pass linear and cheap. */
function readPinned(dir: string): boolean {
  let text: string;
  try {
    text = readFileSync(join(dir, skillFileName), 'utf8');
  } catch {
    return false;
  }
  if (!/^pinned:/m.test(text)) return false;
  return parseSkill(text, { file: skillFileName }).fields.pinned === true;
}
