import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { orderParentsFirst, type HistoryCommit } from '../core/ledger/commit-record.js';
import { foldHistory, type TouchObserver } from '../core/ledger/history-fold.js';
import { emptyHistoryIndex, type HistoryIndex } from '../core/ledger/history-index.js';
import { buildLogEntry } from '../core/ledger/log-entry.js';
import { locateSkillFile, normalizeSkillsRoots, type SkillRoots } from '../core/ledger/skill-paths.js';
import { readGitDir } from './git-dir.js';
import { readHistoryCache, writeHistoryCache, type HistoryCacheFile, type LedgerCommits } from './history-cache.js';
import { markEditedRenames } from './history-renames.js';
import { hasSystemGit } from './history-git.js';
import { isomorphicGitWalker } from './history-walk-isomorphic.js';
import { systemGitWalker } from './history-walk-system.js';
import type { HistoryBackend, HistoryWalker, WalkRange } from './history-walker.js';

export interface HistoryIndexOptions {
  /** The skill roots, repository-relative: one or the library's list (default `skills`). */
  skillsRoot?: SkillRoots;
  /** `auto` (default): the system git when it is on the PATH, else isomorphic-git. */
  backend?: HistoryBackend;
  /** Default `HEAD`. */
  ref?: string;
  /** Default true: read and write `.git/skillgarden/history-index.json`. */
  cache?: boolean;
}

export type HistoryIndexUpdate = 'unchanged' | 'incremental' | 'rebuilt';

export interface HistoryIndexResult {
  index: HistoryIndex;
  /** The ledger's commits and their skills, folded with the index (`log` reads them). */
  ledger: LedgerCommits;
  update: HistoryIndexUpdate;
  /** Commits folded by this call. */
  folded: number;
  backend: Exclude<HistoryBackend, 'auto'>;
}

/** Picks the walker; `auto` prefers the system git, whose history walk is about 25 times faster. */
export async function openHistoryWalker(
  dir: string,
  gitdir: string,
  backend: HistoryBackend = 'auto',
): Promise<{ walker: HistoryWalker; backend: Exclude<HistoryBackend, 'auto'> }> {
  const system = backend === 'system-git' || (backend === 'auto' && (await hasSystemGit()));
  return system
    ? { walker: systemGitWalker(dir, gitdir), backend: 'system-git' }
    : { walker: isomorphicGitWalker(gitdir), backend: 'isomorphic-git' };
}

/** The commits where a shallow clone's history is cut. */
async function readShallowCommits(gitdir: string): Promise<Set<string>> {
  const text = await readFile(join(gitdir, 'shallow'), 'utf8').catch(() => '');
  return new Set(
    text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
  );
}

/** A read-only checkout still gets its index, just not a cached one. */
/** The cache is only a cache: a folder that cannot be made or written (read-only, a dangling link, a full disk) costs the next run a rebuild, never this one. */
const cacheWriteFaults = new Set(['EACCES', 'EROFS', 'EPERM', 'ENOENT', 'ENOTDIR', 'ENOSPC', 'EDQUOT']);

function ignoreReadOnly(error: unknown): void {
  if (!cacheWriteFaults.has(String((error as NodeJS.ErrnoException | null)?.code))) throw error;
}

/** A cache to extend: same skills root and the same shallow cut (a deepened clone has new history to fold). */
function usableCache(cache: HistoryCacheFile | null, roots: readonly string[], shallow: readonly string[]): HistoryCacheFile | null {
  // A cache from before several roots has no skillsRoots: rebuilt.
  if (cache === null || (cache.index.skillsRoots ?? []).join('\n') !== roots.join('\n') || cache.index.head === null) return null;
  return cache.shallow.join() === shallow.join() ? cache : null;
}

/**
 * The commits after the cached head, or null when the cached head is not an ancestor of the new
 * one (a force-push). It is one iff it is a parent of a commit in `head ^cached`: no separate
 * ancestry query, which without a commit-graph can walk all of history.
 */
async function readNewCommits(walker: HistoryWalker, range: WalkRange): Promise<HistoryCommit[] | null> {
  const commits = await walker.readCommits(range);
  const exclude = range.exclude;
  return exclude === null || commits.some((c) => c.parents.includes(exclude)) ? commits : null;
}

async function foldRange(
  walker: HistoryWalker,
  cache: HistoryCacheFile | null,
  range: Omit<WalkRange, 'exclude' | 'seen'>,
): Promise<{ commits: HistoryCommit[]; cache: HistoryCacheFile | null }> {
  if (cache !== null) {
    const commits = await readNewCommits(walker, { ...range, exclude: cache.index.head, seen: new Set(cache.seen) });
    if (commits !== null) return { commits, cache };
  }
  return { commits: await walker.readCommits({ ...range, exclude: null, seen: new Set() }), cache: null };
}

/** Records a folded commit that `log` shows: a ledger entry, or one naming or touching a skill. */
function noteLedgerCommit(ledger: LedgerCommits): TouchObserver {
  return (commit, touched) => {
    const entry = buildLogEntry(commit, [...touched].sort());
    if (entry.action !== null || entry.skills.length > 0) ledger[commit.oid] = entry.skills;
  };
}

/**
 * What history says about every skill: creation, provenance, last patch, archive and restore, pins.
 * One walk of history, cached by head commit and extended incrementally.
 */
export async function readHistoryIndex(dir: string, options: HistoryIndexOptions = {}): Promise<HistoryIndexResult> {
  const root = normalizeSkillsRoots(options.skillsRoot ?? 'skills');
  const gitdir = await readGitDir(dir);
  const { walker, backend } = await openHistoryWalker(dir, gitdir, options.backend);
  const head = await walker.resolveHead(options.ref ?? 'HEAD');
  if (head === null) return { index: emptyHistoryIndex(root), ledger: {}, update: 'rebuilt', folded: 0, backend };
  const useCache = options.cache !== false;
  const shallow = await readShallowCommits(gitdir);
  const cut = [...shallow].sort();
  const cached = useCache ? usableCache(await readHistoryCache(gitdir), root, cut) : null;
  if (cached?.index.head === head) return { index: cached.index, ledger: cached.ledger, update: 'unchanged', folded: 0, backend };
  const { commits, cache } = await foldRange(walker, cached, { head, skillsRoot: root, shallow });
  await markEditedRenames(walker, commits);
  const ledger: LedgerCommits = { ...cache?.ledger };
  const index = foldHistory(cache?.index ?? emptyHistoryIndex(root), orderParentsFirst(commits), head, noteLedgerCommit(ledger));
  if (useCache) {
    const seen = [...(cache?.seen ?? []), ...commits.map((c) => c.oid)];
    await writeHistoryCache(gitdir, { version: 4, index, ledger, seen, shallow: cut }).catch(ignoreReadOnly);
  }
  return { index, ledger, update: cache ? 'incremental' : 'rebuilt', folded: commits.length, backend };
}

/**
 * Why a cached index cannot be right, or null: its commit unreadable, or its skills not those of that
 * commit's tree (a SKILL.md it misses, or a folder it names that holds none). One tree is read, never
 * history: `doctor` runs in hooks and must stay cheap on a long history.
 */
export async function checkCachedIndex(dir: string, index: HistoryIndex, backend?: HistoryBackend): Promise<string | null> {
  if (index.head === null) return null;
  const at = index.head.slice(0, 12);
  const { walker } = await openHistoryWalker(dir, await readGitDir(dir), backend);
  let files: Set<string>;
  try {
    files = new Set(await walker.listFiles(index.head, index.skillsRoots));
  } catch {
    return `it describes commit ${at}, which cannot be read`;
  }
  for (const skill of Object.values(index.skills)) {
    if (!files.has(`${skill.folder}/SKILL.md`)) return `it places ${skill.name} in ${skill.folder}, which holds no SKILL.md at ${at}`;
  }
  for (const path of files) {
    const name = locateSkillFile(path, index.skillsRoots)?.name;
    if (name !== undefined && index.skills[name] === undefined) return `it misses ${name} (${path}) at ${at}`;
  }
  return null;
}
