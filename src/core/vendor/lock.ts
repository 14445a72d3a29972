import { SkillgardenError } from '../errors.js';

/** The lock at the repository root: vercel-labs/skills' project lock, with the fields a Git-backed library needs added. */
export const lockFileName = 'skills-lock.json';
export const lockVersion = 1;

/**
 * One vendored skill. `source`, `sourceType`, `ref` and `computedHash` are vercel-labs/skills' project-lock fields
 * and mean what they mean there; `sourceUrl`, `skillPath` and `installedAt` are named as in its global lock;
 * `commit` is ours. Fields another tool wrote are kept as they are.
 */
export interface LockEntry {
  /** As the user gave it: `owner/repo`, a git URL, or a local path. */
  source: string;
  sourceType: SourceType;
  /** The requested branch or tag; absent: the source's default branch. */
  ref?: string;
  /** sha256 of the folder's content, hex (docs/vendored-skills.md). */
  computedHash: string;
  /** The URL git fetches. */
  sourceUrl?: string;
  /** The skill folder in the source, repository-relative. */
  skillPath?: string;
  /** The source commit the folder was copied from. */
  commit?: string;
  /** ISO time of the `add`. */
  installedAt?: string;
  [other: string]: unknown;
}

export type SourceType = 'github' | 'git' | 'local' | (string & {});

export interface SkillsLock {
  version: number;
  skills: Record<string, LockEntry>;
  [other: string]: unknown;
}

/** A pinned entry: everything `install --frozen` and `update` need. */
export type PinnedEntry = LockEntry & Required<Pick<LockEntry, 'sourceUrl' | 'skillPath' | 'commit'>>;

export function emptyLock(): SkillsLock {
  return { version: lockVersion, skills: {} };
}

/** Parses the lock's text; a broken one is `vendor/bad-lock` naming the file and line. */
export function parseLock(text: string): SkillsLock {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const at = /position (\d+)/.exec((error as Error).message);
    const line = at ? text.slice(0, Number(at[1])).split('\n').length : 1;
    throw badLock(`${lockFileName}:${line}: not JSON (${(error as Error).message})`);
  }
  if (!isObject(data) || typeof data.version !== 'number' || !isObject(data.skills)) {
    throw badLock(`${lockFileName}: expected { "version": number, "skills": { … } }`);
  }
  for (const [name, entry] of Object.entries(data.skills)) {
    if (!isObject(entry) || typeof entry.source !== 'string' || typeof entry.computedHash !== 'string') {
      throw badLock(`${lockFileName}: skill "${name}" needs "source" and "computedHash" strings`);
    }
  }
  return data as SkillsLock;
}

/** Skills sorted by name, two-space JSON and a final newline: what vercel-labs/skills writes, so diffs stay small. */
export function serializeLock(lock: SkillsLock): string {
  const skills = Object.fromEntries(
    Object.keys(lock.skills)
      .sort()
      .map((name) => [name, lock.skills[name]]),
  );
  return `${JSON.stringify({ ...lock, skills }, null, 2)}\n`;
}

/** The entry as `install --frozen` and `update` need it, or `vendor/not-pinned` naming the skill. */
export function requirePinned(name: string, entry: LockEntry): PinnedEntry {
  if (typeof entry.sourceUrl === 'string' && typeof entry.skillPath === 'string' && typeof entry.commit === 'string') {
    return entry as PinnedEntry;
  }
  throw new SkillgardenError(
    'vendor/not-pinned',
    `${lockFileName}: skill "${name}" has no pinned commit (sourceUrl, skillPath, commit): another tool wrote it. Run \`skillgarden add ${entry.source} --skill ${name}\` after removing the skill to pin it.`,
    { data: { skill: name, exitCode: 2 } },
  );
}

function badLock(message: string): SkillgardenError {
  return new SkillgardenError('vendor/bad-lock', `${message}. Fix the file (or restore it from git), then run the command again.`, {
    data: { file: lockFileName, exitCode: 2 },
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
