import { SkillgardenError, isSkillgardenError } from '../core/errors.js';
import { beforeValues, ChainTree, checkShape } from './chain-tree.js';
import { checkExpected } from './check-touched-paths.js';
import { checkRepoState } from './check-repo-state.js';
import type { CommitContext } from './commit-context.js';
import { readBranch, resolvePeople } from './commit-people.js';
import { mapLimited, readCheckoutBytes, writeConvertedBlob } from './git-plumbing.js';
import type { Author, BatchResult, CommitOptions } from './ledger.js';
import { backoffMs, sleep } from './lock-file.js';
import { fileChanges, folderMoves, prepareChanges, refuseMoveOverlap } from './prepare-changes.js';
import type { PreparedChange } from './prepare-changes.js';
import { badPath } from './paths.js';
import { publish } from './publish-commit.js';
import { readRef } from './refs.js';
import { checkEmbeddedCanWrite, checkObjectFormat, checkSparse, pathsToConvert } from './repo-setup.js';
import type { BlobRef } from './tree-edit.js';

const maxAttempts = 100;

/** One commit of a batch, as added: what a replay on a moved branch builds again. */
interface Entry {
  changes: PreparedChange[];
  message: string;
  people: { author: Required<Author>; committer: Required<Author> };
}

/**
 * A chain of commits on the current branch, published together: each `add` is its own commit
 * (its own message and trailers, parent the previous one), built by the ledger's writer on the
 * batch's tip (git fast-import, or the object store); `publish` has the objects written, then,
 * under one `index.lock` and one branch lock, checks the touched files are clean, updates the
 * working tree and the index once and moves the branch once. The intent journal names every
 * touched path, so a crash leaves each file as the parent had it (`doctor --fix`) or as the last
 * commit has it.
 *
 * An `add` that is refused (a conflict, a bad path) changes nothing and the batch goes on; a
 * single commit is a batch of one. If another writer moved the branch, the whole chain is built
 * again on its new tip, and refused as a whole if one of its commits no longer applies.
 */
export class CommitBatch {
  private readonly entries: Entry[] = [];
  /** Each commit as the writer named it: its id, or a fast-import mark until the objects are flushed. */
  private readonly names: string[] = [];
  private opened: { branch: string; parent: string | undefined } | undefined;
  /** The tip's tree, as the commits so far leave it. */
  private tree: ChainTree | undefined;
  /** The final state of every touched path, deletions first; and each one as the parent has it. */
  private net = new Map<string, PreparedChange>();
  private before = new Map<string, BlobRef | undefined>();
  private tip: string | undefined;
  private published = false;

  constructor(private readonly ctx: CommitContext) {}

  get size(): number {
    return this.names.length;
  }

  /** Builds one commit on the batch's tip (its id comes with `publish`). */
  async add(options: CommitOptions): Promise<void> {
    if (this.published) throw new Error('CommitBatch: add after publish');
    const changes = prepareChanges(options.changes);
    await this.open();
    checkSparse(
      this.ctx.setup,
      changes.map((c) => c.path),
    );
    const paths = fileChanges(changes).map((c) => c.path);
    if (this.ctx.backend === 'isomorphic-git') checkEmbeddedCanWrite(this.ctx.setup, this.ctx.dir, paths);
    else await convertChanges(this.ctx, fileChanges(changes));
    const entry: Entry = { changes, message: options.message, people: await resolvePeople(this.ctx, options.author) };
    await this.build(entry);
    this.entries.push(entry);
  }

  /** Publishes every added commit; a batch with none moves nothing. */
  async publish(): Promise<BatchResult> {
    this.published = true;
    if (this.entries.length === 0 || this.opened === undefined) return { commits: [], attempts: 1 };
    const { branch } = this.opened;
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      const commits = await this.flushObjects();
      await this.ctx.onStage?.('objects-written');
      const last = this.entries.at(-1)!;
      const subject =
        this.entries.length === 1 ? `commit: ${last.message}` : `commit: ${this.entries.length} commits, the last: ${last.message}`;
      const published = await publish(this.ctx, {
        branch,
        parent: this.opened.parent,
        commit: commits.at(-1)!,
        changes: this.netChanges(),
        before: this.before,
        committer: last.people.committer,
        reflog: subject,
      });
      if (published) return { commits, attempts: attempt };
      await sleep(backoffMs(attempt));
      await this.replay(await readRef(this.ctx.layout, branch));
    }
    throw new SkillgardenError(
      'ledger/busy',
      `The branch ${branch} kept moving (another writer commits to it without pause); gave up after ${maxAttempts} attempts. Retry later; \`skillgarden doctor\` lists a write of ours still running.`,
      {
        data: { ref: branch },
      },
    );
  }

  /**
   * Has the writer put every object on disk. A writer whose process died meanwhile (a `git gc
   * --prune=now` removed the pack fast-import was writing) is started again and the chain rebuilt once.
   */
  private async flushObjects(): Promise<string[]> {
    try {
      return await this.ctx.writer.flush(this.names);
    } catch (error) {
      if (!isSkillgardenError(error, 'ledger/git-failed')) throw error;
      await this.ctx.writer.close().catch(() => undefined);
      await this.replay(this.opened!.parent);
      return this.ctx.writer.flush(this.names);
    }
  }

  private async open(): Promise<{ branch: string; parent: string | undefined }> {
    if (this.opened) return this.opened;
    checkObjectFormat(this.ctx.setup, this.ctx.dir);
    const branch = await readBranch(this.ctx.layout);
    checkRepoState(this.ctx.layout, branch, this.ctx.setup.config.bool('core.bare') ?? false);
    const parent = await readRef(this.ctx.layout, branch);
    this.opened = { branch, parent };
    this.tip = parent;
    this.tree = new ChainTree(this.ctx.store, parent);
    return this.opened;
  }

  /** The commit on the tip: checks `expected`, case twins and the paths' shape on the batch's tree, then has the writer build it. */
  private async build(entry: Entry): Promise<void> {
    const { changes, message, people } = entry;
    const tree = this.tree!;
    refuseMoveOverlap(changes, [...this.net.values()]);
    for (const half of folderMoves(changes)) half.oid = await tree.moveTree(half.move.from, half.move.to);
    const files = fileChanges(changes);
    const found = await tree.findAll(files.map((c) => c.path));
    const before = beforeValues(found);
    checkExpected(files, before);
    if (this.ctx.setup.config.bool('core.ignorecase') ?? false) await refuseCaseTwins(tree, files, before);
    checkShape(found);
    // A blob the tree already holds (a moved file) is named, not sent again.
    const held = new Set([...before.values()].map((blob) => blob?.oid));
    for (const change of changes) if (change.oid !== null && held.has(change.oid)) change.stored = true;
    const name = await this.ctx.writer.write(this.tip, changes, { message, ...people });
    await tree.apply(changes);
    for (const change of changes) {
      if (!this.before.has(change.path)) this.before.set(change.path, before.get(change.path));
      this.net.delete(change.path);
      this.net.set(change.path, change);
    }
    this.tip = name;
    this.names.push(name);
  }

  /** Builds the whole chain again on the branch's new tip; a commit that no longer applies refuses the batch. */
  private async replay(parent: string | undefined): Promise<void> {
    this.opened = { branch: this.opened!.branch, parent };
    this.net = new Map();
    this.before = new Map();
    this.names.length = 0;
    this.tip = parent;
    this.tree = new ChainTree(this.ctx.store, parent);
    for (const entry of this.entries) await this.build(entry);
  }

  /** Deletions first: a file removed by one commit may be where a later one puts a folder. */
  private netChanges(): PreparedChange[] {
    const all = [...this.net.values()];
    return [...all.filter((c) => c.oid === null), ...all.filter((c) => c.oid !== null)];
  }
}

/**
 * On a case-insensitive file system (`core.ignorecase`, which git sets at init there) a new path
 * that differs only in case from a tracked one is the same file: writing it would overwrite that
 * file on disk and leave the index with two entries for one file. Git's own index refuses to map
 * it for us, so it is refused, naming the tracked path to use instead.
 */
async function refuseCaseTwins(
  tree: ChainTree,
  changes: readonly PreparedChange[],
  before: ReadonlyMap<string, BlobRef | undefined>,
): Promise<void> {
  for (const change of changes) {
    if (change.content === null || before.get(change.path) !== undefined) continue;
    const twin = await tree.findCaseTwin(change.path);
    if (twin === undefined) continue;
    throw badPath(
      change.path,
      `it differs only in case from ${twin}, which is tracked; with core.ignorecase (a case-insensitive file system) they are one file. Write to ${twin}${change.path.slice(twin.length)} instead`,
    );
  }
}

export function beginBatch(ctx: CommitContext): CommitBatch {
  return new CommitBatch(ctx);
}

/**
 * Paths git converts (core.autocrlf, .gitattributes eol/filters): git stores
 * the blob (`hash-object --path`) and says what a checkout writes, so a
 * clean file stays clean and a written one is what `git checkout` writes.
 */
async function convertChanges(ctx: CommitContext, changes: PreparedChange[]): Promise<void> {
  const candidates = changes.filter((c) => c.mode !== '120000').map((c) => c.path);
  const converted = new Set(pathsToConvert(ctx.setup, ctx.dir, candidates));
  if (converted.size === 0) return;
  for (const change of changes) change.converted = converted.has(change.path);
  const targets = changes.filter((c) => c.converted && c.content);
  const oids = await mapLimited(targets, (c) => writeConvertedBlob(ctx.dir, c.path, c.content!));
  targets.forEach((change, i) => Object.assign(change, { oid: oids[i], stored: true }));
  const bytes = await readCheckoutBytes(
    ctx.dir,
    targets.map((c) => ({ path: c.path, oid: c.oid! })),
  );
  for (const change of targets) change.worktree = bytes.get(change.path) ?? change.content!;
}
