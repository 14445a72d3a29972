import { readOnlyError } from './fs-sync.js';
import type { Author } from './ledger.js';
import type { NewCommit, ObjectStore } from './object-store.js';
import type { PreparedChange } from './prepare-changes.js';
import { editTree } from './tree-edit.js';

export interface NewCommitText {
  message: string;
  author: Required<Author>;
  committer: Required<Author>;
}

/**
 * Where a batch's commits are built: git's `fast-import` with the system git (fast-import.ts),
 * the object store otherwise (the embedded backend, and where git must sign each commit).
 */
export interface CommitWriter {
  /**
   * One commit on `tip` (a commit id, or a name this writer returned) with `changes`, already
   * checked against the tip's tree (chain-tree.ts). Returns the commit's name: its id, or
   * fast-import's mark until `flush`.
   */
  write(tip: string | undefined, changes: readonly PreparedChange[], commit: NewCommitText): Promise<string>;
  /** Every object written so far is on disk, for any git to read; returns the ids of the commits `names` name. */
  flush(names: readonly string[]): Promise<string[]>;
  close(): Promise<void>;
}

/** Blobs, trees and commits one by one through the object store; `writeCommit` signs when the repository asks for it. */
export class StoreWriter implements CommitWriter {
  constructor(
    private readonly store: ObjectStore,
    private readonly writeCommit: (commit: NewCommit) => Promise<string>,
  ) {}

  async write(tip: string | undefined, changes: readonly PreparedChange[], commit: NewCommitText): Promise<string> {
    const edits = new Map(changes.map((c) => [c.path, c.oid === null ? null : { oid: c.oid, mode: c.mode }]));
    try {
      for (const change of changes) if (change.content && !change.stored) await this.store.writeBlob(change.content);
      const tree = await editTree(this.store, await this.treeOf(tip), edits);
      return await this.writeCommit({ tree, parents: tip === undefined ? [] : [tip], ...commit });
    } catch (error) {
      // Objects are written before any lock is taken: a read-only git folder is met here first.
      throw readOnlyError(error) ?? error;
    }
  }

  /** Written as they come, named by id. */
  async flush(names: readonly string[]): Promise<string[]> {
    return [...names];
  }

  async close(): Promise<void> {}

  private async treeOf(commit: string | undefined): Promise<string | undefined> {
    return commit === undefined ? undefined : (await this.store.readCommit(commit)).tree;
  }
}
