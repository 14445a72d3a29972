import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import type { CommitContext } from './commit-context.js';
import type { Author, BranchCommitResult, BranchTip, FileChange } from './ledger.js';
import { acquireLock } from './lock-file.js';
import { fileChanges, folderMoves, prepareChanges } from './prepare-changes.js';
import { appendReflogs, isOid, isValidRefName, lockRef, readHeadState, readRef } from './refs.js';
import { beforeValues, ChainTree, checkShape } from './chain-tree.js';
import { checkExpected } from './check-touched-paths.js';
import { identity, resolvePeople } from './commit-people.js';

/*
 * Proposals and staged writes are branches that are never checked out: a
 * commit goes onto `refs/heads/<branch>` with a chosen parent, and the index,
 * the working tree and the current branch stay exactly as they were. The
 * branch is then what a person reviews, merges (accepts) or deletes (declines).
 */

export interface BranchCommitOptions {
  /** The branch's short name, e.g. `skillgarden/staged/pdf`. */
  branch: string;
  /** The new commit's parent (a commit id); the branch is moved to the new commit whatever it held before. */
  base: string;
  message: string;
  changes: readonly FileChange[];
  /** Default: who git says ran it (as for every ledger commit). */
  author?: Author;
  /** The tip the caller saw: `null` = the branch must not exist yet, `undefined` = replace whatever it holds. */
  expectedTip?: string | null;
}

export async function writeBranchCommit(ctx: CommitContext, options: BranchCommitOptions): Promise<BranchCommitResult> {
  const ref = branchRef(options.branch);
  await refuseCheckedOut(ctx, ref);
  const changes = prepareChanges(options.changes);
  const { author, committer } = await resolvePeople(ctx, options.author);
  const people = { message: options.message, author, committer };
  const tree = new ChainTree(ctx.store, options.base);
  for (const half of folderMoves(changes)) half.oid = await tree.moveTree(half.move.from, half.move.to);
  const found = await tree.findAll(fileChanges(changes).map((c) => c.path));
  checkExpected(changes, beforeValues(found));
  checkShape(found);
  const [commit] = await ctx.writer.flush([await ctx.writer.write(options.base, changes, people)]);
  const lock = await lockRef(ctx.layout, ref, { timeoutMs: ctx.lockTimeoutMs });
  try {
    const previous = await readRef(ctx.layout, ref);
    checkTip(options.branch, previous, options.expectedTip);
    await lock.commit(`${commit!}\n`);
    const reflog = { before: previous, after: commit!, who: identity(committer), message: `skillgarden: ${options.message}` };
    await appendReflogs(ctx.layout, [ref], reflog, ctx.setup.reflog);
    return { commit: commit!, branch: options.branch, previous };
  } finally {
    await lock.release();
  }
}

/** Every branch under `prefix` (e.g. `skillgarden/`), loose and packed, sorted by name. */
export async function listBranches(ctx: CommitContext, prefix: string): Promise<BranchTip[]> {
  const found = new Map<string, string>();
  for (const [ref, oid] of readPackedRefs(ctx.layout.commondir)) {
    if (ref.startsWith(`refs/heads/${prefix}`)) found.set(ref.slice('refs/heads/'.length), oid);
  }
  const walk = (folder: string, name: string) => {
    for (const entry of safeReaddir(folder)) {
      const child = name === '' ? entry.name : `${name}/${entry.name}`;
      if (entry.isDirectory()) walk(join(folder, entry.name), child);
      else if (entry.isFile() && !entry.name.endsWith('.lock') && child.startsWith(prefix)) {
        const oid = readFileSync(join(folder, entry.name), 'utf8').trim();
        if (isOid(oid)) found.set(child, oid);
      }
    }
  };
  walk(join(ctx.layout.commondir, 'refs', 'heads'), '');
  return [...found].map(([branch, commit]) => ({ branch, commit })).sort((a, b) => (a.branch < b.branch ? -1 : 1));
}

/** Deletes a branch that is not checked out (loose file and packed line, under git's locks); false when it did not exist. */
export async function deleteBranch(ctx: CommitContext, branch: string, expectedTip?: string): Promise<boolean> {
  const ref = branchRef(branch);
  await refuseCheckedOut(ctx, ref);
  const lock = await lockRef(ctx.layout, ref, { timeoutMs: ctx.lockTimeoutMs });
  try {
    const current = await readRef(ctx.layout, ref);
    if (current === undefined) return false;
    if (expectedTip !== undefined) checkTip(branch, current, expectedTip);
    if (readPackedRefs(ctx.layout.commondir).has(ref)) await dropPackedRef(ctx, ref);
    rmSync(join(ctx.layout.commondir, ref), { force: true });
    rmSync(join(ctx.layout.commondir, 'logs', ref), { force: true });
    return true;
  } finally {
    await lock.release();
  }
}

function branchRef(branch: string): string {
  const ref = `refs/heads/${branch}`;
  if (!isValidRefName(ref)) {
    throw new SkillgardenError('ledger/bad-ref-name', `"${branch.slice(0, 100)}" is not a valid branch name (see git check-ref-format).`, {
      data: { name: branch },
    });
  }
  return ref;
}

/** A branch checked out here or in any linked worktree is never rewritten behind that worktree's back. */
async function refuseCheckedOut(ctx: CommitContext, ref: string): Promise<void> {
  const common = ctx.layout.commondir;
  const heads = [ctx.gitdir, common, ...safeReaddir(join(common, 'worktrees')).map((e) => join(common, 'worktrees', e.name))];
  for (const gitdir of new Set(heads)) {
    const head = await readHeadState(gitdir).catch(() => undefined);
    if (head?.kind !== 'branch' || head.ref !== ref) continue;
    throw new SkillgardenError(
      'ledger/branch-checked-out',
      `${ref.slice('refs/heads/'.length)} is checked out${gitdir === ctx.gitdir ? '' : ` in another worktree (${gitdir})`}; switch that worktree to another branch before skillgarden rewrites it.`,
      { data: { ref, gitdir } },
    );
  }
}

function checkTip(branch: string, actual: string | undefined, expected: string | null | undefined): void {
  if (expected === undefined || (actual ?? null) === expected) return;
  throw new SkillgardenError(
    'ledger/conflict',
    `Branch ${branch} moved: expected ${expected ?? 'no branch'}, found ${actual ?? 'no branch'}. Someone else changed it; read it again and retry.`,
    { data: { branch, expected, actual: actual ?? null } },
  );
}

function readPackedRefs(gitdir: string): Map<string, string> {
  const refs = new Map<string, string>();
  const path = join(gitdir, 'packed-refs');
  if (!existsSync(path)) return refs;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.length > 41 && line[40] === ' ' && isOid(line.slice(0, 40))) refs.set(line.slice(41), line.slice(0, 40));
  }
  return refs;
}

/** Rewrites packed-refs without `ref` (and its peeled `^` line), under `packed-refs.lock`, as `git update-ref -d` does. */
async function dropPackedRef(ctx: CommitContext, ref: string): Promise<void> {
  const path = join(ctx.layout.commondir, 'packed-refs');
  const lock = await acquireLock(path, { timeoutMs: ctx.lockTimeoutMs });
  try {
    const kept: string[] = [];
    let dropping = false;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (line.startsWith('^')) {
        if (!dropping) kept.push(line);
        continue;
      }
      dropping = line.slice(41) === ref;
      if (!dropping) kept.push(line);
    }
    await lock.commit(kept.join('\n'));
  } finally {
    await lock.release();
  }
}

function safeReaddir(folder: string) {
  try {
    return readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
}
