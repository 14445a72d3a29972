import { join } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import { checkClean, checkExpected } from './check-touched-paths.js';
import type { CommitContext } from './commit-context.js';
import { applyIndexChanges, buildIndexEntry } from './git-index.js';
import { checkIndexPresent, readIndexFile, writeIndexFile } from './index-file.js';
import type { IndexEntry } from './git-index.js';
import type { Author, CommitOptions, CommitResult } from './ledger.js';
import { acquireLock, backoffMs, sleep } from './lock-file.js';
import type { HeldLock } from './lock-file.js';
import { formatTimezone } from './object-store.js';
import { prepareChanges } from './prepare-changes.js';
import type { PreparedChange } from './prepare-changes.js';
import { appendReflogs, lockRef, readHeadState, readRef } from './refs.js';
import { editTree, lookupPaths } from './tree-edit.js';
import type { BlobRef } from './tree-edit.js';
import { removeWorktreeFile, writeWorktreeFile } from './worktree.js';

const maxAttempts = 100;

/**
 * Objects first, ref last: blobs, trees and the commit are written without a
 * lock; then, holding `index.lock` and the branch's `.lock` (in git's order),
 * the commit is published only if the branch still points at our parent.
 * Otherwise it is rebuilt on the new head and tried again. Uncommitted edits
 * are looked for only under the locks: unlocked, the look can land inside
 * another writer's publish (files and index written, ref not yet moved), and
 * a refused commit leaves only unreferenced objects, which `git gc` prunes.
 */
export async function writeCommit(ctx: CommitContext, options: CommitOptions): Promise<CommitResult> {
  const changes = prepareChanges(options.changes);
  const branch = await readBranch(ctx.gitdir);
  const author = await resolveAuthor(ctx, options.author);
  for (const change of changes) if (change.content) await ctx.store.writeBlob(change.content);
  for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
    const parent = await readRef(ctx.gitdir, branch);
    const built = await buildCommit(ctx, { changes, parent, message: options.message, author });
    await ctx.onStage?.('objects-written');
    const published = await publish(ctx, { branch, parent, ...built, changes, author, message: options.message });
    if (published) return { commit: built.commit, attempts: attempt };
    await sleep(backoffMs(attempt));
  }
  throw new SkillgardenError('ledger/busy', `The branch ${branch} kept moving; gave up after ${maxAttempts} attempts. Retry later.`, {
    data: { ref: branch },
  });
}

interface PublishInput extends BuildInput {
  branch: string;
  commit: string;
  before: ReadonlyMap<string, BlobRef | undefined>;
}

/**
 * Under `index.lock` and the branch lock: working tree, index, then ref.
 * The index goes before the ref because `git commit` reads HEAD and then the
 * index *before* it takes `index.lock`: had the ref moved first, a concurrent
 * `git commit` could pair our new HEAD with the old index and silently revert
 * our files (seen in the concurrency test). This way a git that sees our HEAD
 * also sees our index. False when the branch moved.
 */
async function publish(ctx: CommitContext, input: PublishInput): Promise<boolean> {
  const locks = await takeLocks(ctx, input.branch);
  try {
    if ((await readRef(ctx.gitdir, input.branch)) !== input.parent) return false;
    const index = await readIndexFile(ctx.gitdir, ctx.indexCache);
    await checkIndexPresent(ctx.gitdir, index, input.parent !== undefined);
    await checkClean(ctx.dir, input.changes, input.before, index);
    const entries = await updateWorktree(ctx.dir, input.changes);
    await writeIndexFile(ctx.gitdir, locks.index, applyIndexChanges(index, entries), ctx.indexCache);
    await ctx.onStage?.('index-written');
    await locks.ref.commit(`${input.commit}\n`);
    const reflog = { before: input.parent, after: input.commit, who: identity(input.author), message: `commit: ${input.message}` };
    await appendReflogs(ctx.gitdir, [input.branch, 'HEAD'], reflog);
    await ctx.onStage?.('ref-updated');
    return true;
  } finally {
    await locks.ref.release();
    await locks.index.release();
  }
}

interface BuildInput {
  changes: readonly PreparedChange[];
  parent: string | undefined;
  message: string;
  author: Required<Author>;
}

async function buildCommit(ctx: CommitContext, input: BuildInput) {
  const tree = input.parent ? (await ctx.store.readCommit(input.parent)).tree : undefined;
  const before = await lookupPaths(
    ctx.store,
    tree,
    input.changes.map((c) => c.path),
  );
  checkExpected(input.changes, before);
  const edits = new Map(input.changes.map((c) => [c.path, c.oid === null ? null : { oid: c.oid, mode: c.mode }]));
  const newTree = await editTree(ctx.store, tree, edits);
  const parents = input.parent ? [input.parent] : [];
  const commit = await ctx.store.writeCommit({ tree: newTree, parents, message: input.message, author: input.author });
  return { commit, before };
}

export async function readBranch(gitdir: string): Promise<string> {
  const head = await readHeadState(gitdir);
  if (head.kind === 'branch') return head.ref;
  throw new SkillgardenError(
    'ledger/detached-head',
    `HEAD is detached at ${head.oid.slice(0, 12)}; a ledger commit needs a branch. Run \`git switch -c <branch>\` (or \`git switch <branch>\`) and retry.`,
    { data: { oid: head.oid } },
  );
}

async function takeLocks(ctx: CommitContext, branch: string): Promise<{ index: HeldLock; ref: HeldLock }> {
  const index = await acquireLock(join(ctx.gitdir, 'index'), { timeoutMs: ctx.lockTimeoutMs });
  try {
    return { index, ref: await lockRef(ctx.gitdir, branch, { timeoutMs: ctx.lockTimeoutMs }) };
  } catch (error) {
    await index.release();
    throw error;
  }
}

async function updateWorktree(dir: string, changes: readonly PreparedChange[]): Promise<Map<string, IndexEntry | null>> {
  const entries = new Map<string, IndexEntry | null>();
  for (const change of changes) {
    if (change.content === null || change.oid === null) {
      await removeWorktreeFile(dir, change.path);
      entries.set(change.path, null);
    } else {
      const stat = await writeWorktreeFile(dir, change.path, change.content, change.mode);
      entries.set(change.path, buildIndexEntry({ path: change.path, oid: change.oid, mode: change.mode, stat }));
    }
  }
  return entries;
}

async function resolveAuthor(ctx: CommitContext, author: Author | undefined): Promise<Required<Author>> {
  const who = author ?? (await ctx.defaultAuthor());
  return {
    name: who.name,
    email: who.email,
    timestamp: author?.timestamp ?? Math.floor(ctx.now().getTime() / 1000),
    timezoneOffset: author?.timezoneOffset ?? 0,
  };
}

function identity(author: Required<Author>): string {
  return `${author.name} <${author.email}> ${author.timestamp} ${formatTimezone(author.timezoneOffset)}`;
}
