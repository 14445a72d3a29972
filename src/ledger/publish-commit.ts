import { join } from 'node:path';
import { isSkillgardenError } from '../core/errors.js';
import { lstatIfAny } from '../store/fs-probe.js';
import { checkClean } from './check-touched-paths.js';
import type { CommitContext } from './commit-context.js';
import { identity } from './commit-people.js';
import { applyIndexChanges, buildIndexEntry } from './git-index.js';
import type { GitIndex, IndexEntry } from './git-index.js';
import { hashWorktreeFiles, readStagedWithGit, updateIndexWithGit } from './git-plumbing.js';
import { checkIndexPresent, readIndexFile, writeIndexFile } from './index-file.js';
import type { Author } from './ledger.js';
import { acquireLock, lockOwnerDir } from './lock-file.js';
import type { HeldLock } from './lock-file.js';
import { beginJournal, journalOf } from './move-journal.js';
import { checkMovesClean, listMoves, moveIndexEntries, movedPaths, moveWorktreeFolders } from './move-folders.js';
import type { FolderMove } from './move-folders.js';
import { fileChanges, folderMoves } from './prepare-changes.js';
import type { PreparedChange } from './prepare-changes.js';
import { appendReflogs, lockRef, readRef } from './refs.js';
import type { BlobRef } from './tree-edit.js';
import { folderMode } from './object-store.js';
import { removeWorktreeFile, writeWorktreeFile } from './worktree.js';

export interface PublishInput {
  branch: string;
  /** What the branch must still point at; `undefined` in a repository with no commits. */
  parent: string | undefined;
  /** The new tip: the last commit of the batch. */
  commit: string;
  /** The final state of every path the batch touched. */
  changes: readonly PreparedChange[];
  /** Each touched path as the parent has it. */
  before: ReadonlyMap<string, BlobRef | undefined>;
  committer: Required<Author>;
  /** The reflog's message, e.g. `commit: <subject>`. */
  reflog: string;
}

/**
 * Under `index.lock` and the branch lock: working tree, index, then ref.
 * The index goes before the ref because `git commit` reads HEAD and then the
 * index *before* it takes `index.lock`: had the ref moved first, a concurrent
 * `git commit` could pair our new HEAD with the old index and silently revert
 * our files (seen in the concurrency test). This way a git that sees our HEAD
 * also sees our index. False when the branch moved.
 */
export async function publish(ctx: CommitContext, input: PublishInput): Promise<boolean> {
  const locks = await takeLocks(ctx, input.branch);
  const changes = fileChanges(input.changes);
  let moves: FolderMove[];
  try {
    moves = await listMoves(ctx.store, folderMoves(input.changes));
  } catch (error) {
    await locks.ref.release();
    await locks.index.release();
    throw error;
  }
  const paths = changes.map((c) => c.path);
  // Intent log (move-journal.ts): a crash from here on is reported, and repaired, by `doctor --fix`.
  const journal = beginJournal(ctx.gitdir, {
    ...journalOf(input),
    paths,
    ...(moves.length > 0 ? { moves: moves.map((m) => ({ from: m.from, to: m.to })) } : {}),
    locks: [locks.index.path, locks.ref.path],
    lockMarkers: true,
  });
  let moving = false;
  try {
    if ((await readRef(ctx.layout, input.branch)) !== input.parent) return false;
    const index = await readIndexOrLetGit(ctx);
    if (index) await checkIndexPresent(ctx.gitdir, index, input.parent !== undefined);
    const staged = index ?? (await readStagedWithGit(ctx.dir, join(ctx.gitdir, 'index'), [...paths, ...movedPaths(moves)]));
    const converted = changes.filter((c) => c.converted).map((c) => c.path);
    await checkClean(ctx.dir, changes, input.before, staged, await hashWorktreeFiles(ctx.dir, converted.filter(isFileAt(ctx.dir))));
    await checkMovesClean(ctx.dir, ctx.gitdir, moves, staged, { systemGit: ctx.backend === 'system-git' });
    journal.writing();
    moving = true;
    // Deletions, then the moved folders (none of the batch's files is in one: write-batch.ts), then the writes.
    const entries = await updateWorktree(ctx.dir, changes, () => moveWorktreeFolders(ctx.dir, moves));
    if (index) {
      const updated = applyIndexChanges(moveIndexEntries(index, moves), entries);
      await writeIndexFile(ctx.gitdir, locks.index, updated, ctx.indexCache, ctx.setup.fsync.index);
    } else await updateIndexWithGit(ctx.dir, ctx.gitdir, locks.index, [...paths, ...movedPaths(moves)], ctx.setup.fsync.index);
    await ctx.onStage?.('index-written');
    await locks.ref.commit(`${input.commit}\n`, { durable: ctx.setup.fsync.reference });
    const reflog = { before: input.parent, after: input.commit, who: identity(input.committer), message: input.reflog };
    await appendReflogs(ctx.layout, [input.branch, 'HEAD'], reflog, ctx.setup.reflog);
    journal.finish();
    moving = false;
    await ctx.onStage?.('ref-updated');
    return true;
  } finally {
    await locks.ref.release();
    await locks.index.release();
    // After the locks: a journal may outlive its locks (harmless), never a lock its journal.
    // A failure among the file writes keeps the journal: `doctor --fix` puts those paths back.
    if (!moving) journal.finish();
  }
}

/**
 * The native index reader keeps versions 2 and 3 with optional extensions;
 * for anything else (v4, a split or sparse index) the system git updates the
 * index itself, and the embedded backend refuses (`ledger/unsupported-index`).
 */
async function readIndexOrLetGit(ctx: CommitContext): Promise<GitIndex | undefined> {
  try {
    return await readIndexFile(ctx.gitdir, ctx.indexCache);
  } catch (error) {
    if (ctx.backend === 'system-git' && isSkillgardenError(error, 'ledger/unsupported-index')) return undefined;
    throw error;
  }
}

function isFileAt(dir: string): (path: string) => boolean {
  return (path) => lstatIfAny(join(dir, path))?.isFile() ?? false;
}

async function takeLocks(ctx: CommitContext, branch: string): Promise<{ index: HeldLock; ref: HeldLock }> {
  const options = { timeoutMs: ctx.lockTimeoutMs, ownerDir: lockOwnerDir(ctx.layout.commondir) };
  const index = await acquireLock(join(ctx.gitdir, 'index'), options);
  try {
    return { index, ref: await lockRef(ctx.layout, branch, options) };
  } catch (error) {
    await index.release();
    throw error;
  }
}

async function updateWorktree(
  dir: string,
  changes: readonly PreparedChange[],
  moveFolders: () => void,
): Promise<Map<string, IndexEntry | null>> {
  const entries = new Map<string, IndexEntry | null>();
  for (const change of changes) {
    if (change.content !== null && change.oid !== null) continue;
    await removeWorktreeFile(dir, change.path);
    entries.set(change.path, null);
  }
  moveFolders();
  for (const change of changes) {
    if (change.content === null || change.oid === null || change.mode === folderMode) continue;
    const stat = await writeWorktreeFile(dir, change.path, change.worktree ?? change.content, change.mode);
    entries.set(change.path, buildIndexEntry({ path: change.path, oid: change.oid, mode: change.mode, stat }));
  }
  return entries;
}
