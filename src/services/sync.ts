import { SkillgardenError } from '../core/errors.js';
import { porcelainGit } from '../ledger/system-git.js';

export interface SyncOptions {
  repoDir: string;
  /** Default `origin`. */
  remote?: string;
  /** Default: the current branch. */
  branch?: string;
  /** Pushes retried when someone else pushed in between (default 5). */
  maxAttempts?: number;
}

export interface SyncResult {
  branch: string;
  /** Remote commits brought in. */
  pulled: number;
  /** Local commits replayed on top of the remote (0 when it was a fast-forward or nothing to do). */
  replayed: number;
  /** Local commits pushed. */
  pushed: number;
  attempts: number;
}

/**
 * Many machines, one library (DESIGN §3): fetch, replay the local ledger
 * commits on the remote's (they rarely touch the same files; usage files are
 * per writer and never conflict), push, and retry when the remote moved again
 * meanwhile. A real conflict stops everything with the files named and the
 * local branch exactly as it was.
 */
export async function syncRepository(options: SyncOptions): Promise<SyncResult> {
  const remote = options.remote ?? 'origin';
  const dir = options.repoDir;
  const branch = options.branch ?? (await currentBranch(dir));
  await refuseDirtyTree(dir);
  const maxAttempts = options.maxAttempts ?? 5;
  let pulled = 0;
  let replayed = 0;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const upstream = await fetchBranch(dir, remote, branch);
    const { ahead, behind } = upstream ? await countDivergence(dir, upstream) : { ahead: await countUnpushed(dir, remote), behind: 0 };
    if (upstream && behind > 0) {
      if (ahead === 0) await git(dir, ['merge', '--ff-only', '--quiet', upstream]);
      else {
        await replayOnto(dir, upstream, branch);
        replayed = ahead;
      }
      pulled += behind;
    }
    if (ahead === 0) return { branch, pulled, replayed, pushed: 0, attempts: attempt };
    const push = await tryGit(dir, ['push', '--quiet', remote, `HEAD:refs/heads/${branch}`]);
    if (push.ok) return { branch, pulled, replayed, pushed: ahead, attempts: attempt };
    if (!/rejected|non-fast-forward|fetch first|stale info/i.test(push.stderr)) {
      throw new SkillgardenError(
        'sync/push-failed',
        `git push to ${remote} failed: ${firstLine(push.stderr)}. Your commits are safe on ${branch}; run \`skillgarden sync\` again once the remote is reachable.`,
        {
          data: { remote, branch, stderr: push.stderr },
        },
      );
    }
  }
  throw new SkillgardenError(
    'sync/busy',
    `the remote's ${branch} kept moving: ${maxAttempts} pushes were rejected. Your commits are safe; run \`skillgarden sync\` again.`,
    {
      data: { remote, branch, attempts: maxAttempts },
    },
  );
}

async function currentBranch(dir: string): Promise<string> {
  const result = await tryGit(dir, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  if (!result.ok)
    throw new SkillgardenError(
      'sync/detached-head',
      `${dir} is not on a branch (detached HEAD). Check out the library's branch (e.g. \`git switch main\`) and sync again.`,
      { data: { dir } },
    );
  return result.stdout.trim();
}

async function refuseDirtyTree(dir: string): Promise<void> {
  const status = await git(dir, ['status', '--porcelain', '--untracked-files=no']);
  const files = status
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(3));
  if (files.length > 0) {
    throw new SkillgardenError(
      'sync/dirty',
      `uncommitted changes to ${files.join(', ')}: commit them (or discard them) before syncing, so replaying cannot touch them.`,
      { data: { files } },
    );
  }
}

/** Fetches the branch; returns its remote-tracking ref, or undefined when the remote has no such branch yet. */
async function fetchBranch(dir: string, remote: string, branch: string): Promise<string | undefined> {
  const tracking = `refs/remotes/${remote}/${branch}`;
  const fetched = await tryGit(dir, ['fetch', '--quiet', remote, `+refs/heads/${branch}:${tracking}`]);
  if (fetched.ok) return tracking;
  if (/couldn't find remote ref/i.test(fetched.stderr)) return undefined;
  throw new SkillgardenError(
    'sync/fetch-failed',
    `git fetch from ${remote} failed: ${firstLine(fetched.stderr)}. Check the remote (\`git remote -v\`) and your network, then sync again.`,
    {
      data: { remote, stderr: fetched.stderr },
    },
  );
}

async function countDivergence(dir: string, upstream: string): Promise<{ ahead: number; behind: number }> {
  const [ahead, behind] = (await git(dir, ['rev-list', '--left-right', '--count', `HEAD...${upstream}`])).trim().split(/\s+/).map(Number);
  return { ahead: ahead ?? 0, behind: behind ?? 0 };
}

/** Commits on HEAD that no branch of the remote has: what a first push of a new branch sends. */
async function countUnpushed(dir: string, remote: string): Promise<number> {
  return Number((await git(dir, ['rev-list', '--count', 'HEAD', '--not', `--remotes=${remote}`])).trim());
}

/** Rebases local commits onto `upstream`; on a conflict, aborts (the branch returns to where it was) and names the files. */
async function replayOnto(dir: string, upstream: string, branch: string): Promise<void> {
  const before = (await git(dir, ['rev-parse', 'HEAD'])).trim();
  const rebase = await tryGit(dir, ['rebase', '--quiet', '--no-autosquash', upstream]);
  if (rebase.ok) return;
  const conflicted = (await tryGit(dir, ['diff', '--name-only', '--diff-filter=U'])).stdout.split('\n').filter(Boolean);
  await tryGit(dir, ['rebase', '--abort']);
  const after = (await tryGit(dir, ['rev-parse', 'HEAD'])).stdout.trim();
  const files = conflicted.length > 0 ? conflicted.join(', ') : 'unknown files';
  throw new SkillgardenError(
    'sync/conflict',
    `your local commits and the remote's both changed ${files}. Nothing was lost: ${branch} is back at ${after.slice(0, 12)}, as before the sync. Merge by hand (\`git pull --rebase\`, resolve, \`git rebase --continue\`) or roll back one side, then sync again.`,
    { data: { files: conflicted, branch, head: after, restored: after === before, exitCode: 1 } },
  );
}

function firstLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? 'no output';
}

interface GitRun {
  ok: boolean;
  stdout: string;
  stderr: string;
}

/**
 * Every git call of a sync goes through here, porcelain through simple-git
 * (the choke point, ledger/system-git.ts): no prompts, bounded time, git's
 * words kept for the message.
 */
async function tryGit(dir: string, args: string[]): Promise<GitRun> {
  try {
    return { ok: true, stdout: await porcelainGit(dir, { timeoutMs: 120_000 }).raw(args), stderr: '' };
  } catch (error) {
    return { ok: false, stdout: '', stderr: (error as Error).message };
  }
}

async function git(dir: string, args: string[]): Promise<string> {
  const result = await tryGit(dir, args);
  if (!result.ok)
    throw new SkillgardenError('sync/git-failed', `git ${args[0]} failed in ${dir}: ${firstLine(result.stderr)}`, {
      data: { args, stderr: result.stderr },
    });
  return result.stdout;
}
