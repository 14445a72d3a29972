import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { Finding } from '../core/findings.js';
import type { RegistryEntry } from '../core/registry/types.js';
import type { SkillLocation } from '../store/discover.js';
import type { Stamp } from './library-scan.js';

/**
 * The registry's persisted index (as git's index caches what it has seen):
 * per skill, the SKILL.md's stamp, its git blob id and the entry built from
 * it. A cold start trusts an entry whose file has the same stamp, and when
 * the stamp moved (a checkout, a touch) but the blob id is the same, reuses
 * the entry without parsing. The discovery itself still runs on every start (it is
 * what decides which skills exist, and the layout may have moved). Stored under .git/skillgarden/.
 */
export interface IndexedSkill {
  location: SkillLocation;
  stamp: Stamp | undefined;
  blob: string | undefined;
  entry: RegistryEntry | undefined;
  problems: Finding[];
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
const indexVersion = 2;

/** git's blob id: sha-1 of `blob <length>\0` and the bytes. */
export function blobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** The index for `root`, or undefined when missing, unreadable, from another version or another root: the caller loads cold. */
export function readLibraryIndex(file: string, root: string): LibraryIndexFile | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<LibraryIndexFile> | null;
    if (parsed?.version !== indexVersion || parsed.root !== root || !Array.isArray(parsed.skills)) {
      return undefined;
    }
    return parsed as LibraryIndexFile;
  } catch {
    return undefined;
  }
}

/** Temp file, then rename: a reader sees the old index or the new one, never half of one. */
export function writeLibraryIndex(file: string, index: Omit<LibraryIndexFile, 'version'>): void {
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temp, JSON.stringify({ version: indexVersion, ...index }));
    renameSync(temp, file);
  } catch {
    // A cache that cannot be written (a read-only checkout) only costs the next start its speed.
    rmSync(temp, { force: true });
  }
}

/**
 * Where a repository keeps its index: `skillgarden/registry-index.json` in its git folder, found as git finds
 * it (`GIT_DIR`, a `.git` folder, or the folder a linked worktree's `.git` file names). Outside a git
 * repository there is none: a plain folder of skills loads cold every time, and nothing is written into it.
 */
export function defaultIndexFile(repoDir: string): string | undefined {
  const gitdir = findGitDir(repoDir);
  return gitdir === undefined ? undefined : join(gitdir, 'skillgarden', 'registry-index.json');
}

function findGitDir(repoDir: string): string | undefined {
  if (process.env.GIT_DIR) return resolve(process.env.GIT_DIR);
  const dotGit = join(repoDir, '.git');
  const info = statSync(dotGit, { throwIfNoEntry: false });
  if (info?.isDirectory()) return dotGit;
  if (!info?.isFile()) return undefined;
  try {
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
    return match?.[1] ? (isAbsolute(match[1]) ? match[1] : resolve(repoDir, match[1])) : undefined;
  } catch {
    return undefined;
  }
}
