import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import type { RepoLayout } from './git-dir.js';

/** Files git leaves in a worktree's git folder while an operation waits for the user (wt-status.c). */
const inProgress: ReadonlyArray<[string, string, string]> = [
  ['rebase-merge', 'a rebase', 'git rebase --continue` or `git rebase --abort'],
  ['rebase-apply', 'a rebase or `git am`', 'git rebase --continue` (`git am --continue`) or `--abort'],
  ['MERGE_HEAD', 'a merge', 'git merge --continue` or `git merge --abort'],
  ['CHERRY_PICK_HEAD', 'a cherry-pick', 'git cherry-pick --continue` or `git cherry-pick --abort'],
  ['REVERT_HEAD', 'a revert', 'git revert --continue` or `git revert --abort'],
];

/**
 * Before a ledger commit: no operation half done (a commit now would land in
 * the middle of it), no `GIT_INDEX_FILE` (git would use that index, the
 * worktree's files another), and the branch not checked out in a second
 * worktree (its index and files would silently fall behind).
 */
export function checkRepoState(layout: RepoLayout, branch: string, bare: boolean): void {
  for (const [file, what, fix] of inProgress) {
    if (!existsSync(join(layout.gitdir, file))) continue;
    throw new SkillgardenError(
      'ledger/operation-in-progress',
      `${what} is in progress in ${layout.dir} (${join(layout.gitdir, file)} exists); a ledger commit now would land inside it. Finish it (\`${fix}\`), then retry.`,
      { data: { dir: layout.dir, file } },
    );
  }
  if (process.env.GIT_INDEX_FILE) {
    throw new SkillgardenError(
      'ledger/index-file-set',
      `GIT_INDEX_FILE is set (${process.env.GIT_INDEX_FILE}); skillgarden updates the worktree's own index only. Unset GIT_INDEX_FILE and retry.`,
      { data: { indexFile: process.env.GIT_INDEX_FILE } },
    );
  }
  const other = otherWorktreeOn(layout, branch, bare);
  if (other !== undefined) {
    throw new SkillgardenError(
      'ledger/branch-checked-out-elsewhere',
      `${branch.replace(/^refs\/heads\//, '')} is also checked out in ${other}; moving it would leave that worktree's files and index behind. Switch one of them to another branch (\`git switch -c <name>\`) and retry.`,
      { data: { branch, worktree: other } },
    );
  }
}

/** Another worktree whose HEAD names `branch` (`git worktree add --force` allows it). */
function otherWorktreeOn(layout: RepoLayout, branch: string, bare: boolean): string | undefined {
  // A bare repository's HEAD is no checkout.
  const heads: Array<[string, string]> = bare ? [] : [[join(layout.commondir, 'HEAD'), layout.commondir]];
  let names: string[] = [];
  try {
    names = readdirSync(join(layout.commondir, 'worktrees'));
  } catch {
    // No linked worktrees: the common case, one readdir.
    if (layout.gitdir === layout.commondir) return undefined;
  }
  for (const name of names) {
    const folder = join(layout.commondir, 'worktrees', name);
    heads.push([
      join(folder, 'HEAD'),
      readText(join(folder, 'gitdir'))
        ?.trim()
        .replace(/\/\.git$/, '') ?? folder,
    ]);
  }
  for (const [head, where] of heads) {
    if (head === join(layout.gitdir, 'HEAD')) continue;
    if (readText(head)?.trim() === `ref: ${branch}`) return where === layout.commondir ? where.replace(/\/\.git$/, '') : where;
  }
  return undefined;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
