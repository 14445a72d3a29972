import { readRepoLayout } from '../ledger/git-dir.js';
import { cacheFilePath, readCacheFile, writeCacheFile } from './cache-file.js';

/** A cache file of the repository, read; `save` writes it back whole. */
export interface RepoCacheFile {
  /** The worktree root and its git folder (the scan takes blob ids from the index there). */
  dir: string;
  gitdir: string;
  /** What the file held (unknown: the caller checks it), undefined when absent or not JSON. */
  data: unknown;
  save(value: unknown): void;
}

/**
 * Opens `.git/skillgarden/<name>` of the repository at `repo`. Undefined
 * outside a git repository: there is nowhere to keep it that `git status`
 * would not show.
 */
export async function openRepoCache(repo: string, name: string): Promise<RepoCacheFile | undefined> {
  let layout;
  try {
    layout = await readRepoLayout(repo);
  } catch {
    return undefined;
  }
  const file = cacheFilePath(layout.gitdir, name);
  return { dir: layout.dir, gitdir: layout.gitdir, data: readCacheFile(file), save: (value) => writeCacheFile(file, value) };
}
