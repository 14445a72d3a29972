import { join } from 'node:path';
import { SkillgardenError, isSkillgardenError } from '../core/errors.js';
import { lstatIfAny } from '../store/fs-probe.js';
import { checkClean, checkExpected } from './check-touched-paths.js';
import { checkRepoState } from './check-repo-state.js';
import type { CommitContext } from './commit-context.js';
import { applyIndexChanges, buildIndexEntry } from './git-index.js';
import { checkIndexPresent, readIndexFile, writeIndexFile } from './index-file.js';
import type { GitIndex, IndexEntry } from './git-index.js';
import {
  hashWorktreeFiles,
  readCheckoutBytes,
  readStagedWithGit,
  updateIndexWithGit,
  writeConvertedBlob,
  writeSignedCommit,
} from './git-plumbing.js';
import type { Author, CommitOptions, CommitResult } from './ledger.js';
import { acquireLock, backoffMs, sleep } from './lock-file.js';
import type { HeldLock } from './lock-file.js';
import type { NewCommit } from './object-store.js';
import { formatTimezone } from './object-store.js';
import { prepareChanges } from './prepare-changes.js';
import type { PreparedChange } from './prepare-changes.js';
import { appendReflogs, lockRef, readHeadState, readRef } from './refs.js';
import type { RefDirs } from './refs.js';
import { checkEmbeddedCanWrite, checkObjectFormat, checkSparse, pathsToConvert } from './repo-setup.js';
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
  const paths = changes.map((c) => c.path);
  checkObjectFormat(ctx.setup, ctx.dir);
  const branch = await readBranch(ctx.layout);
  checkRepoState(ctx.layout, branch, ctx.setup.config.bool('core.bare') ?? false);
  checkSparse(ctx.setup, paths);
  if (ctx.backend === 'isomorphic-git') checkEmbeddedCanWrite(ctx.setup, ctx.dir, paths);
  else await convertChanges(ctx, changes);
  const people = await resolvePeople(ctx, options.author);
  for (const change of changes) if (change.content && !change.stored) await ctx.store.writeBlob(change.content);
  for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
    const parent = await readRef(ctx.layout, branch);
    const built = await buildCommit(ctx, { changes, parent, message: options.message, ...people });
    await ctx.onStage?.('objects-written');
    const published = await publish(ctx, { branch, parent, ...built, changes, ...people, message: options.message });
    if (published) return { commit: built.commit, attempts: attempt };
    await sleep(backoffMs(attempt));
  }
  throw new SkillgardenError('ledger/busy', `The branch ${branch} kept moving; gave up after ${maxAttempts} attempts. Retry later.`, {
    data: { ref: branch },
  });
}

/**
 * Paths git converts (core.autocrlf, .gitattributes eol/filters): git stores
 * the blob (`hash-object --path`) and says what a checkout writes, so a
 * clean file stays clean and a written one is what `git checkout` writes.
 */
async function convertChanges(ctx: CommitContext, changes: PreparedChange[]): Promise<void> {
  const converted = new Set(
    pathsToConvert(
      ctx.setup,
      ctx.dir,
      changes.filter((c) => c.content && c.mode !== '120000').map((c) => c.path),
    ),
  );
  if (converted.size === 0) return;
  const targets = changes.filter((c) => converted.has(c.path));
  for (const change of targets) {
    change.oid = await writeConvertedBlob(ctx.dir, change.path, change.content!);
    change.stored = true;
  }
  const bytes = await readCheckoutBytes(
    ctx.dir,
    targets.map((c) => ({ path: c.path, oid: c.oid! })),
  );
  for (const change of targets) change.worktree = bytes.get(change.path) ?? change.content!;
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
    if ((await readRef(ctx.layout, input.branch)) !== input.parent) return false;
    const paths = input.changes.map((c) => c.path);
    const index = await readIndexOrLetGit(ctx);
    if (index) await checkIndexPresent(ctx.gitdir, index, input.parent !== undefined);
    const staged = index ?? (await readStagedWithGit(ctx.dir, join(ctx.gitdir, 'index'), paths));
    const converted = input.changes.filter((c) => c.worktree !== undefined).map((c) => c.path);
    await checkClean(ctx.dir, input.changes, input.before, staged, await hashWorktreeFiles(ctx.dir, converted.filter(isFileAt(ctx.dir))));
    const entries = await updateWorktree(ctx.dir, input.changes);
    if (index) await writeIndexFile(ctx.gitdir, locks.index, applyIndexChanges(index, entries), ctx.indexCache, ctx.setup.fsync.index);
    else await updateIndexWithGit(ctx.dir, ctx.gitdir, locks.index, paths, ctx.setup.fsync.index);
    await ctx.onStage?.('index-written');
    await locks.ref.commit(`${input.commit}\n`, { durable: ctx.setup.fsync.reference });
    const reflog = { before: input.parent, after: input.commit, who: identity(input.committer), message: `commit: ${input.message}` };
    await appendReflogs(ctx.layout, [input.branch, 'HEAD'], reflog, ctx.setup.reflog);
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
  committer: Required<Author>;
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
  const commit = await writeCommitObject(ctx, {
    tree: newTree,
    parents,
    message: input.message,
    author: input.author,
    committer: input.committer,
  });
  return { commit, before };
}

/** A commit object, signed when the repository says so (`commit.gpgSign`). */
export async function writeCommitObject(ctx: CommitContext, object: NewCommit): Promise<string> {
  // Signing is git's: the embedded backend refused before anything was written.
  return ctx.setup.sign ? writeSignedCommit(ctx.dir, object) : ctx.store.writeCommit(object);
}

export async function readBranch(dirs: RefDirs): Promise<string> {
  const head = await readHeadState(dirs);
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
    return { index, ref: await lockRef(ctx.layout, branch, { timeoutMs: ctx.lockTimeoutMs }) };
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
      const stat = await writeWorktreeFile(dir, change.path, change.worktree ?? change.content, change.mode);
      entries.set(change.path, buildIndexEntry({ path: change.path, oid: change.oid, mode: change.mode, stat }));
    }
  }
  return entries;
}

/**
 * A commit's author: the one given, else who git says; its committer is
 * always who git says (who ran it). Dates: the given one, else
 * `GIT_AUTHOR_DATE` / `GIT_COMMITTER_DATE`, else the ledger's clock.
 */
export async function resolvePeople(
  ctx: CommitContext,
  given: Author | undefined,
): Promise<{ author: Required<Author>; committer: Required<Author> }> {
  const who = await ctx.identities();
  const now = { timestamp: Math.floor(ctx.now().getTime() / 1000), timezoneOffset: 0 };
  const givenDate = given?.timestamp === undefined ? undefined : { timestamp: given.timestamp, timezoneOffset: given.timezoneOffset ?? 0 };
  const author = given ?? who.author;
  const authorDate = givenDate ?? who.author.date ?? now;
  return {
    author: { name: author.name, email: author.email, ...authorDate },
    committer: { name: who.committer.name, email: who.committer.email, ...(givenDate ?? who.committer.date ?? now) },
  };
}

export function identity(author: Required<Author>): string {
  return `${author.name} <${author.email}> ${author.timestamp} ${formatTimezone(author.timezoneOffset)}`;
}
