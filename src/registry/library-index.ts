import { findGitDir } from '../ledger/git-dir.js';
import { cacheFilePath, readCacheFile, writeCacheFile } from '../store/cache-file.js';
import type { Finding } from '../core/findings.js';
import type { RegistryEntry } from '../core/registry/types.js';
import type { SkillLocation } from '../store/discover.js';
import type { Stamp } from './library-scan.js';

/**
 * The registry's persisted index (as git's index caches what it has seen):
 * per skill, the SKILL.md's stamp, its git blob id and the Layer-1 part of
 * the entry built from it (no body, nothing the location already says: the
 * body is read when a load first asks for it, from the bytes of that blob id). A cold start trusts an entry whose file has the same stamp, and when
 * the stamp moved (a checkout, a touch) but the blob id is the same, reuses
 * the entry without parsing. The discovery itself still runs on every start (it is
 * what decides which skills exist, and the layout may have moved). Stored under .git/skillgarden/.
 */
export interface IndexedSkill {
  location: SkillLocation;
  stamp: Stamp | undefined;
  blob: string | undefined;
  entry: StoredEntry | undefined;
  problems: Finding[];
}

/** Fields an entry keeps in the index as '': the location's come back from `location`, the body from the file. */
type Restored = 'body' | 'name' | 'category' | 'dir' | 'relativeDir';

/**
 * What an entry keeps in the index. The restored fields are held as '', in their places (a string, so that filling them in changes no field's representation), so that the parsed
 * object becomes the entry when they are filled in (same keys, same order as a built entry), not copied:
 * 10,000 fewer objects live through a start's garbage collections.
 */
export type StoredEntry = Omit<RegistryEntry, Restored> & Record<Restored, ''>;

/** Field by field, in RegistryEntry's order (the stored and the built entry print the same). */
export function storedEntry(e: RegistryEntry): StoredEntry {
  return {
    name: '',
    alias: e.alias,
    category: '',
    dir: '',
    relativeDir: '',
    description: e.description,
    whenToUse: e.whenToUse,
    argumentHint: e.argumentHint,
    userInvocable: e.userInvocable,
    modelInvocable: e.modelInvocable,
    pinned: e.pinned,
    context: e.context,
    allowedTools: e.allowedTools,
    model: e.model,
    agent: e.agent,
    effort: e.effort,
    maxSteps: e.maxSteps,
    paths: e.paths,
    body: '',
    findings: e.findings,
  };
}

/** The stored entry made the entry at `location`, in place; its body is read later (LibraryCache.settleBodies). */
export function restoreEntry(stored: StoredEntry, location: SkillLocation): RegistryEntry {
  const entry = stored as unknown as RegistryEntry;
  entry.name = location.name;
  entry.category = location.category;
  entry.dir = location.dir;
  entry.relativeDir = location.relativeDir;
  entry.body = '';
  return entry;
}

export interface LibraryIndexFile {
  version: typeof indexVersion;
  /** What it describes (the repository and its skills_dir setting): entries hold absolute paths. */
  root: string;
  /** When it was written (ms): a file modified in that same instant may have changed unseen (git's "racy clean"). */
  writtenAtMs: number;
  skills: IndexedSkill[];
}

/** Bump when what an entry holds, or how it is built, changes: an older file is then ignored. */
const indexVersion = 4;

export { blobId } from '../store/files.js';

/** The index for `root`, or undefined when missing, unreadable, from another version or another root: the caller loads cold. */
export function readLibraryIndex(file: string, root: string): LibraryIndexFile | undefined {
  const parsed = readCacheFile(file) as Partial<LibraryIndexFile> | null | undefined;
  if (parsed?.version !== indexVersion || parsed.root !== root || !Array.isArray(parsed.skills)) return undefined;
  return parsed as LibraryIndexFile;
}

/** Written whole through a temp file (cache-file.ts): a reader sees the old index or the new one. */
export function writeLibraryIndex(file: string, index: Omit<LibraryIndexFile, 'version'>): void {
  writeCacheFile(file, { version: indexVersion, ...index });
}

/**
 * Where a repository keeps its index: `skillgarden/registry-index.json` in its git folder, found as git finds
 * it (`GIT_DIR`, a `.git` folder, or the folder a linked worktree's `.git` file names). Outside a git
 * repository there is none: a plain folder of skills loads cold every time, and nothing is written into it.
 */
export function defaultIndexFile(repoDir: string): string | undefined {
  const gitdir = findGitDir(repoDir);
  return gitdir === undefined ? undefined : cacheFilePath(gitdir, 'registry-index.json');
}
