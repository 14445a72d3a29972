import { relative, sep } from 'node:path';
import type { Finding } from '../core/findings.js';
import { buildEntry, type SkillView } from '../core/registry/build-entry.js';
import { parseQuickSkill } from '../core/registry/quick-frontmatter.js';
import type { RegistryEntry } from '../core/registry/types.js';
import { parseSkillBytes } from '../core/skill/index.js';
import type { SkillLocation } from '../store/discover.js';
import type { EscapedSkill } from '../store/layout/discover-library.js';
import {
  nodeScanFs,
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
import {
  blobId,
  readLibraryIndex,
  restoreEntry,
  storedEntry,
  writeLibraryIndex,
  type IndexedSkill,
  type LibraryIndexFile,
} from './library-index.js';

interface CachedSkill {
  location: SkillLocation;
  stamp: Stamp | undefined;
  /** Git blob id of the bytes `entry`/`problems` were built from (kept only with a persisted index). */
  blob: string | undefined;
  /** The last valid version: what is served, even while the file on disk is broken. */
  entry: RegistryEntry | undefined;
  /** Findings of the file as it is on disk now (empty when it is valid and clean). */
  problems: Finding[];
  /** `entry` is an older version than the (invalid) file on disk: served here, never persisted (a cold start would not have it). */
  stale?: boolean;
  /** Taken from the persisted index, not yet read by this process. */
  restored?: boolean;
  /** The entry came from the index without its body: the blob id whose bytes the body is to be read from. */
  bodyBlob?: string;
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
  /** Something the persisted index holds changed since it was read or written. */
  private dirty = false;
  private indexTried = false;

  /** `indexFile`: where the persisted index lives (library-index.ts); without it, every start reads every SKILL.md. */
  constructor(
    private readonly source: LibrarySource,
    private readonly fs: ScanFs,
    private readonly indexFile?: string,
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

  /**
   * Reads the bodies of entries restored from the index (all, or these names) before they are handed out:
   * each from its SKILL.md when the file still holds the bytes the entry was built from. Returns the
   * SKILL.md paths that changed since (their stamps forgotten): the caller refreshes them, and the
   * refresh reads each whole.
   */
  settleBodies(names?: Iterable<string>): string[] {
    const changed: string[] = [];
    const skills = names === undefined ? this.skills.values() : [...names].map((n) => this.skills.get(n));
    for (const skill of skills) {
      if (skill?.bodyBlob === undefined || skill.entry === undefined) continue;
      const file = skillFilePath(skill.location);
      const bytes = this.fs.readFile(file);
      if (bytes !== undefined && blobId(bytes) === skill.bodyBlob) {
        skill.entry.body = parseFast(bytes, this.reportPath(file)).body;
        skill.bodyBlob = undefined;
      } else {
        skill.stamp = undefined;
        changed.push(file);
      }
    }
    return changed;
  }

  private reportPath(file: string): string {
    return relative(this.source.repoDir, file).split(sep).join('/');
  }

  /** Why a skill of this name is not served, when its SKILL.md is invalid and no valid version of it was read. */
  withheld(name: string): Finding[] | undefined {
    const skill = this.skills.get(name);
    return skill !== undefined && skill.entry === undefined && skill.problems.length > 0 ? skill.problems : undefined;
  }

  /** Every current problem: invalid files and duplicate names. */
  problems(): Finding[] {
    // In path order, as a cold discovery finds them: a start over the index keeps the index's order of skills.
    const skills = [...this.skills.values()].sort((a, b) =>
      a.location.dir < b.location.dir ? -1 : a.location.dir > b.location.dir ? 1 : 0,
    );
    return [...this.duplicates, ...skills.flatMap((s) => s.problems)];
  }

  /**
   * Re-reads what changed. `changedFiles` (absolute SKILL.md paths, from a
   * watcher) limits the check to those files; without it every SKILL.md is
   * stat'ed. Either way a change in the folder listings means rediscovery.
   */
  refresh(changedFiles?: readonly string[]): RefreshResult {
    const restored = this.restoreIndex();
    const result = this.refreshFromDisk(restored ? undefined : changedFiles, restored);
    if (restored) {
      // New to this process, though not to the index: report them as loaded, as a cold load does.
      const reported = new Set([...result.added, ...result.changed, ...result.removed]);
      const changed = new Set(result.changed);
      result.changed = [];
      for (const [name, skill] of this.skills) if (skill.entry && (changed.has(name) || !reported.has(name))) result.added.push(name);
      result.removed = [];
    }
    if (this.dirty && this.indexFile !== undefined) this.writeIndex(this.indexFile);
    return result;
  }

  /** `discover`: run the discovery whatever the folder stamps say (after a restore: the layout may have moved). */
  private refreshFromDisk(changedFiles: readonly string[] | undefined, discover: boolean): RefreshResult {
    const result: RefreshResult = { added: [], changed: [], removed: [], invalid: [] };
    let rediscover = discover || this.skills.size === 0 || folderSnapshotChanged(this.folders, this.fs);
    if (!rediscover) {
      const targets = changedFiles === undefined ? this.skills.values() : this.skillsAt(changedFiles);
      if (targets === undefined) rediscover = true;
      else for (const skill of targets) if (!this.updateSkill(skill, result)) rediscover = true;
      if (!rediscover) return result;
    }
    // The one discovery: names used twice, links out of the repository and manifest problems come back as findings.
    // It marks the index dirty only where a skill came, went or changed: an unchanged library is not rewritten.
    // The discovery's lstat of each plain SKILL.md is its stamp (the same as a stat): one call per skill, not two.
    // Only on the real file system: a test's injected one must see every stat.
    const stamps = this.fs === nodeScanFs ? new Map<string, Stamp | undefined>() : undefined;
    const { library, roots, listed, readDir } = scanLibrary(this.source, stamps && ((file, stat) => stamps.set(file, stampOf(stat))));
    const locations = library.skills;
    this.rootDirs = roots;
    this.escapedSkills = library.escaped;
    this.folders = readFolderSnapshot(roots, listed, locations, this.fs, readDir);
    this.duplicates.length = 0;
    this.duplicates.push(...library.findings);
    const seen = new Set<string>();
    for (const location of locations) {
      seen.add(location.name);
      const known = this.skills.get(location.name);
      const stamp = stamps?.get(skillFilePath(location));
      if (known && known.location.dir === location.dir) {
        if (!this.updateSkill(known, result, stamp)) seen.delete(location.name);
        continue;
      }
      const fresh: CachedSkill = { location, stamp: undefined, blob: undefined, entry: undefined, problems: [] };
      this.skills.set(location.name, fresh);
      if (!this.updateSkill(fresh, result, stamp)) {
        seen.delete(location.name);
        continue;
      }
      if (fresh.entry) (known?.entry ? result.changed : result.added).push(location.name);
      else if (known?.entry && !known.restored) {
        // The name moved to a folder whose file is invalid: the last valid version this process read is still served,
        // as stale (never persisted: a cold start would not have it). One only restored from the index is not.
        fresh.entry = known.entry;
        fresh.stale = true;
      } else if (known?.entry) result.removed.push(location.name);
    }
    for (const name of [...this.skills.keys()]) {
      if (seen.has(name)) continue;
      if (this.skills.get(name)?.entry) result.removed.push(name);
      this.skills.delete(name);
      this.dirty = true;
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

  /**
   * Re-reads one skill when its stamp moved; false when its SKILL.md is gone (even between the stat and the read).
   * `seen`: the stamp the discovery just took, else the file is stat'ed.
   */
  private updateSkill(skill: CachedSkill, result: RefreshResult, seen?: Stamp): boolean {
    const file = skillFilePath(skill.location);
    const stamp = seen ?? stampOf(this.fs.stat(file));
    if (stamp === undefined) return false;
    if (stamp === skill.stamp) return true;
    const bytes = this.fs.readFile(file);
    if (bytes === undefined) return false;
    skill.stamp = stamp;
    this.dirty = true;
    if (this.indexFile !== undefined) {
      // Same bytes as the version already built (a checkout or a touch moved only the stamp): nothing to parse.
      const blob = blobId(bytes);
      if (blob === skill.blob) {
        if (skill.entry && skill.bodyBlob === blob) {
          skill.entry.body = parseFast(bytes, this.reportPath(file)).body;
          skill.bodyBlob = undefined;
        }
        return true;
      }
      skill.blob = blob;
    }
    const built = buildEntry(parseFast(bytes, this.reportPath(file)), skill.location);
    // A new process serves what a cold start would: not an older version it never read itself.
    if (skill.restored && !built.valid) {
      skill.entry = undefined;
      skill.bodyBlob = undefined;
    }
    skill.restored = false;
    const isNew = skill.entry === undefined;
    if (built.valid) {
      skill.entry = built.entry;
      skill.bodyBlob = undefined;
      skill.stale = false;
      skill.problems = built.entry.findings.filter((f) => f.severity === 'error');
      if (!isNew) result.changed.push(skill.location.name);
    } else {
      skill.problems = built.entry.findings;
      skill.stale = skill.entry !== undefined;
      result.invalid.push({ name: skill.location.name, findings: built.entry.findings });
    }
    return true;
  }

  /** What the index is keyed by: the repository and its skills_dir setting (entries hold absolute paths). */
  private indexKey(): string {
    return JSON.stringify(this.source);
  }

  /**
   * Seeds the cache from the persisted index, once, before the first look at the disk; the refresh
   * then runs the discovery and re-checks every SKILL.md stamp against it. Entries whose file was
   * modified within two seconds of the index being written are re-read (their stamp may not show
   * a change made in the same instant), and one entry is rebuilt and compared as a canary: an
   * index written by a build that makes entries differently is dropped whole.
   */
  private restoreIndex(): boolean {
    if (this.indexTried || this.indexFile === undefined || this.skills.size > 0) return false;
    this.indexTried = true;
    const index = readLibraryIndex(this.indexFile, this.indexKey());
    if (index === undefined || !this.canaryHolds(index)) return false;
    for (const indexed of index.skills) {
      const mtime = Number(indexed.stamp?.split(':')[0]);
      const racy = !Number.isFinite(mtime) || mtime + 2000 >= index.writtenAtMs;
      // In place, not copied (the parsed objects would otherwise live beside their copies through the start).
      const { location, entry, blob } = indexed;
      const skill = indexed as Omit<IndexedSkill, 'entry'> as CachedSkill;
      skill.stamp = racy ? undefined : indexed.stamp;
      skill.restored = true;
      // Layer 1 only: the body is read from the bytes of `blob` when the entry is first handed out (settleBodies).
      skill.entry = entry !== undefined && blob !== undefined ? restoreEntry(entry, location) : undefined;
      if (skill.entry) skill.bodyBlob = blob;
      this.skills.set(location.name, skill);
    }
    this.dirty = false;
    return true;
  }

  private canaryHolds(index: LibraryIndexFile): boolean {
    const sample = index.skills.find((s) => s.entry !== undefined && s.blob !== undefined && s.problems.length === 0);
    if (sample === undefined) return true;
    const file = skillFilePath(sample.location);
    const bytes = this.fs.readFile(file);
    if (bytes === undefined || blobId(bytes) !== sample.blob) return true; // changed on disk: the refresh re-reads it anyway
    const built = buildEntry(parseFast(bytes, this.reportPath(file)), sample.location);
    return JSON.stringify(storedEntry(built.entry)) === JSON.stringify(sample.entry);
  }

  private writeIndex(file: string): void {
    writeLibraryIndex(file, {
      root: this.indexKey(),
      writtenAtMs: Date.now(),
      skills: [...this.skills.values()].map(({ location, stamp, blob, entry, problems, stale }) => ({
        location,
        stamp,
        blob,
        entry: stale || entry === undefined ? undefined : storedEntry(entry),
        problems,
      })),
    });
    this.dirty = false;
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
