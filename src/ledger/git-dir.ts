import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { SkillgardenError } from '../core/errors.js';

/**
 * Where a repository keeps its git data, as git finds it: `GIT_DIR` (with
 * `GIT_WORK_TREE`) when set, else `.git/`, or the folder a `.git` file
 * points to (a linked worktree, a submodule). A linked worktree has its own
 * HEAD, index and reflog of HEAD in `gitdir`, and shares objects and refs
 * through `commondir` (the file of that name says where).
 */
export interface RepoLayout {
  /** The working tree's root. */
  dir: string;
  /** This worktree's git folder (HEAD, index, logs/HEAD). */
  gitdir: string;
  /** The folder shared by every worktree (objects, refs, config); `gitdir` itself outside linked worktrees. */
  commondir: string;
}

export async function readRepoLayout(dir: string): Promise<RepoLayout> {
  const envDir = process.env.GIT_DIR;
  const gitdir = await readGitDir(dir);
  const worktree = envDir && process.env.GIT_WORK_TREE ? resolve(process.env.GIT_WORK_TREE) : dir;
  return { dir: worktree, gitdir, commondir: readCommonDir(gitdir) };
}

function readCommonDir(gitdir: string): string {
  if (process.env.GIT_COMMON_DIR) return resolve(process.env.GIT_COMMON_DIR);
  try {
    const text = readFileSync(join(gitdir, 'commondir'), 'utf8').trim();
    return isAbsolute(text) ? text : resolve(gitdir, text);
  } catch {
    return gitdir;
  }
}

/** This worktree's git folder: `GIT_DIR` when set (git's own rule), `.git/`, or the folder a `.git` file points to. */
export async function readGitDir(dir: string): Promise<string> {
  const gitdir = findGitDir(dir);
  if (gitdir !== undefined) return gitdir;
  throw new SkillgardenError('ledger/not-a-repository', `${dir} is not a git repository (no .git folder).`, {
    data: { dir, hint: `Run \`git init\` in ${dir}, or pass the repository's root folder.` },
  });
}

/** As readGitDir, synchronous (two small reads at most), and undefined outside a git repository. */
export function findGitDir(dir: string): string | undefined {
  if (process.env.GIT_DIR) return resolve(process.env.GIT_DIR);
  const dotGit = join(dir, '.git');
  const info = statSync(dotGit, { throwIfNoEntry: false });
  if (info?.isDirectory()) return dotGit;
  if (!info?.isFile()) return undefined;
  try {
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
    return match?.[1] ? (isAbsolute(match[1]) ? match[1] : resolve(dir, match[1])) : undefined;
  } catch {
    return undefined;
  }
}
