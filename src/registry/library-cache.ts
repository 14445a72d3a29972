import { relative, sep } from 'node:path';
import type { Finding } from '../core/findings.js';
import { buildEntry, type SkillView } from '../core/registry/build-entry.js';
import { parseQuickSkill } from '../core/registry/quick-frontmatter.js';
import type { RegistryEntry } from '../core/registry/types.js';
import { parseSkillBytes } from '../core/skill/index.js';
import type { SkillLocation } from '../store/discover.js';
import type { EscapedSkill } from '../store/layout/discover-library.js';
import {
  scanLibrary,
  type LibrarySource,
  folderSnapshotChanged,
  readFolderSnapshot,
  skillFilePath,
  stampOf,
  type FolderSnapshot,
  type ScanFs,
  type Stamp,
} from './library-scan.js';

interface CachedSkill {
  location: SkillLocation;
  stamp: Stamp | undefined;
  /** The last valid version: what is served, even while the file on disk is broken. */
  entry: RegistryEntry | undefined;
  /** Findings of the file as it is on disk now (empty when it is valid and clean). */
  problems: Finding[];
}

export interface RefreshResult {
  added: string[];
  changed: string[];
  removed: string[];
  /** Skills whose file on disk is invalid: the last valid version (if any) is still served. */
  invalid: { name: string; findings: Finding[] }[];
}

/**
 * The parsed library, re-read only where modification times say something
 * changed: each SKILL.md's stamp, and the stamps of the folders whose
 * listings decide which skills exist.
 */
export class LibraryCache {
  private readonly skills = new Map<string, CachedSkill>();
  private folders: FolderSnapshot = { stamps: new Map() };
  private readonly duplicates: Finding[] = [];
  private byFile = new Map<string, CachedSkill>();
  private escapedSkills: EscapedSkill[] = [];
  private rootDirs: string[] = [];

  constructor(
    private readonly source: LibrarySource,
    private readonly fs: ScanFs,
  ) {}

  /** Skills never served: their folder resolves outside the repository. */
  escaped(): readonly EscapedSkill[] {
    return this.escapedSkills;
  }

  /** The absolute skill roots of the last discovery (what a watcher watches). */
  roots(): readonly string[] {
    return this.rootDirs;
  }

  entries(): IterableIterator<RegistryEntry> {
    return (function* (skills) {
      for (const skill of skills.values()) if (skill.entry) yield skill.entry;
    })(this.skills);
  }

  entry(name: string): RegistryEntry | undefined {
    return this.skills.get(name)?.entry;
  }

  /** Every current problem: invalid files and duplicate names. */
  problems(): Finding[] {
    return [...this.duplicates, ...[...this.skills.values()].flatMap((s) => s.problems)];
  }

  /**
   * Re-reads what changed. `changedFiles` (absolute SKILL.md paths, from a
   * watcher) limits the check to those files; without it every SKILL.md is
   * stat'ed. Either way a change in the folder listings means rediscovery.
   */
  refresh(changedFiles?: readonly string[]): RefreshResult {
    const result: RefreshResult = { added: [], changed: [], removed: [], invalid: [] };
    let rediscover = this.skills.size === 0 || folderSnapshotChanged(this.folders, this.fs);
    if (!rediscover) {
      const targets = changedFiles === undefined ? this.skills.values() : this.skillsAt(changedFiles);
      if (targets === undefined) rediscover = true;
      else for (const skill of targets) if (!this.updateSkill(skill, result)) rediscover = true;
      if (!rediscover) return result;
    }
    // The one discovery: names used twice, links out of the repository and manifest problems come back as findings.
    const { library, roots } = scanLibrary(this.source);
    const locations = library.skills;
    this.rootDirs = roots;
    this.escapedSkills = library.escaped;
    this.folders = readFolderSnapshot(roots, locations, this.fs);
    this.duplicates.length = 0;
    this.duplicates.push(...library.findings);
    const seen = new Set<string>();
    for (const location of locations) {
      seen.add(location.name);
      const known = this.skills.get(location.name);
      if (known && known.location.dir === location.dir) {
        if (!this.updateSkill(known, result)) seen.delete(location.name);
        continue;
      }
      const fresh: CachedSkill = { location, stamp: undefined, entry: undefined, problems: [] };
      this.skills.set(location.name, fresh);
      if (!this.updateSkill(fresh, result)) {
        seen.delete(location.name);
        continue;
      }
      if (fresh.entry) (known?.entry ? result.changed : result.added).push(location.name);
      else if (known?.entry) fresh.entry = known.entry;
    }
    for (const name of [...this.skills.keys()]) {
      if (seen.has(name)) continue;
      if (this.skills.get(name)?.entry) result.removed.push(name);
      this.skills.delete(name);
    }
    this.byFile = new Map();
    return result;
  }

  /** The cached skills at these SKILL.md paths; undefined when one is unknown (a new file: rediscover). */
  private skillsAt(files: readonly string[]): CachedSkill[] | undefined {
    if (this.byFile.size !== this.skills.size) this.byFile = new Map([...this.skills.values()].map((s) => [skillFilePath(s.location), s]));
    const found: CachedSkill[] = [];
    for (const file of new Set(files)) {
      const skill = this.byFile.get(file);
      if (!skill || this.skills.get(skill.location.name) !== skill) return undefined;
      found.push(skill);
    }
    return found;
  }

  /** Re-reads one skill when its stamp moved; false when its SKILL.md is gone (even between the stat and the read). */
  private updateSkill(skill: CachedSkill, result: RefreshResult): boolean {
    const file = skillFilePath(skill.location);
    const stamp = stampOf(this.fs.stat(file));
    if (stamp === undefined) return false;
    if (stamp === skill.stamp) return true;
    const bytes = this.fs.readFile(file);
    if (bytes === undefined) return false;
    skill.stamp = stamp;
    const report = relative(this.source.repoDir, file).split(sep).join('/');
    const built = buildEntry(parseFast(bytes, report), skill.location);
    const isNew = skill.entry === undefined;
    if (built.valid) {
      skill.entry = built.entry;
      skill.problems = built.entry.findings.filter((f) => f.severity === 'error');
      if (!isNew) result.changed.push(skill.location.name);
    } else {
      skill.problems = built.entry.findings;
      result.invalid.push({ name: skill.location.name, findings: built.entry.findings });
    }
    return true;
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The quick reader for the common simple frontmatter, the full parser for everything else (and for every problem). */
function parseFast(bytes: Uint8Array, file: string): SkillView {
  let text: string | undefined;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    text = undefined;
  }
  const quick = text === undefined ? undefined : parseQuickSkill(text);
  return quick ? { file, fields: quick.fields, body: quick.body, findings: [] } : parseSkillBytes(bytes, { file });
}
