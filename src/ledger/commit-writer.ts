import { readOnlyError } from './fs-sync.js';
import type { Author } from './ledger.js';
import type { NewCommit, ObjectStore } from './object-store.js';
import { folderMode } from './object-store.js';
import type { PreparedChange } from './prepare-changes.js';
import { editTree, lookupPaths } from './tree-edit.js';
import type { BlobRef } from './tree-edit.js';

export interface NewCommitText {
  message: string;
  author: Required<Author>;
  committer: Required<Author>;
}

export type CheckBefore = (before: ReadonlyMap<string, BlobRef | undefined>) => void | Promise<void>;

export interface WrittenCommit {
  commit: string;
  before: Map<string, BlobRef | undefined>;
}

/**
 * Where a batch's commits are built: git's `fast-import` with the system git (fast-import.ts),
 * the object store otherwise (the embedded backend, and where git must sign each commit).
 */
export interface CommitWriter {
  /**
   * One commit on `tip` with `changes`, once `check` accepts what each touched path holds at `tip`
   * (the blob, `undefined` when absent or a folder); `ledger/bad-path` for a folder where a file
   * goes, or the reverse. Returns the commit's id and those before-values.
   */
  write(tip: string | undefined, changes: readonly PreparedChange[], commit: NewCommitText, check?: CheckBefore): Promise<WrittenCommit>;
  /** Every object written so far is on disk, for any git to read. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Blobs, trees and commits one by one through the object store; `writeCommit` signs when the repository asks for it. */
export class StoreWriter implements CommitWriter {
  constructor(
    private readonly store: ObjectStore,
    private readonly writeCommit: (commit: NewCommit) => Promise<string>,
  ) {}

  async write(
    tip: string | undefined,
    changes: readonly PreparedChange[],
    commit: NewCommitText,
    check?: CheckBefore,
  ): Promise<WrittenCommit> {
    const edits = new Map(changes.map((c) => [c.path, c.oid === null ? null : { oid: c.oid, mode: c.mode }]));
    const base = await this.treeOf(tip);
    const before = await lookupPaths(this.store, base, [...edits.keys()]);
    await check?.(before);
    try {
      for (const change of changes) if (change.content && !change.stored) await this.store.writeBlob(change.content);
      const tree = await editTree(this.store, base, edits);
      return { commit: await this.writeCommit({ tree, parents: tip === undefined ? [] : [tip], ...commit }), before };
    } catch (error) {
      // Objects are written before any lock is taken: a read-only git folder is met here first.
      throw readOnlyError(error) ?? error;
    }
  }

  /** Written as they come. */
  async flush(): Promise<void> {}

  async close(): Promise<void> {}

  private async treeOf(commit: string | undefined): Promise<string | undefined> {
    return commit === undefined ? undefined : (await this.store.readCommit(commit)).tree;
  }
}

/**
 * The tracked path that `path` names on a case-insensitive file system, when it is spelled
 * differently (`skills/PDF/x` for `skills/pdf/x`); `undefined` when none, or the same.
 */
export async function findCaseTwin(store: ObjectStore, commit: string | undefined, path: string): Promise<string | undefined> {
  let tree = commit === undefined ? undefined : (await store.readCommit(commit)).tree;
  const found: string[] = [];
  const parts = path.split('/');
  for (const part of parts) {
    if (tree === undefined) break;
    const entries = await store.readTree(tree);
    const lower = part.toLowerCase();
    const entry = entries.find((e) => e.name === part) ?? entries.find((e) => e.name.toLowerCase() === lower);
    if (entry === undefined) break;
    found.push(entry.name);
    tree = entry.mode === folderMode ? entry.oid : undefined;
  }
  const twin = found.join('/');
  return twin !== parts.slice(0, found.length).join('/') ? twin : undefined;
}
