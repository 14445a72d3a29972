/**
 * Git as the ledger (DESIGN §3): every mutation is one commit touching only
 * its own files. One interface, two backends (`isomorphic-git`, the default,
 * needs no git binary; `system-git` drives the git on the PATH).
 * Types only, imported by every other module here and importing none of them.
 */

export type LedgerBackend = 'isomorphic-git' | 'system-git';

/** Git's file modes for what a ledger stores. */
export type FileMode = '100644' | '100755' | '120000';

export interface FileChange {
  /** Repository-relative, `/`-separated. */
  path: string;
  /** New content; `null` deletes the file. Strings are written as UTF-8. */
  content: Uint8Array | string | null;
  executable?: boolean;
  /** Store a symbolic link whose target is `content` (git mode 120000): how a rollback restores a deleted link. */
  symlink?: boolean;
  /**
   * The blob id the caller based this change on: `null` = the file must not
   * exist yet, `undefined` = don't care. A mismatch throws `ledger/conflict`.
   */
  expected?: string | null;
  /**
   * Moves the folder `from`, whole, to `path` (as `git mv` does): one tree entry renamed, no file read or
   * rewritten, the working-tree folder renamed (untracked files in it go along). `content` is `null`;
   * `path` must not exist. What archive and restore write.
   */
  from?: string;
}

export interface Author {
  name: string;
  email: string;
  /** Seconds since the epoch; default: now. */
  timestamp?: number;
  /** Minutes, with the sign of `Date#getTimezoneOffset` (UTC+2 is -120); default 0. */
  timezoneOffset?: number;
}

export interface CommitOptions {
  message: string;
  changes: readonly FileChange[];
  author?: Author;
}

export interface BranchCommitRequest {
  /** The branch's short name, e.g. `skillgarden/staged/pdf`. */
  branch: string;
  /** The parent: a commit id or ref; default HEAD. */
  base?: string;
  message: string;
  changes: readonly FileChange[];
  author?: Author;
  /** The tip the caller saw: `null` = the branch must not exist yet, `undefined` = replace whatever it holds. */
  expectedTip?: string | null;
}

export interface BatchResult {
  /** Every commit added, in order; the last is the branch's new tip. */
  commits: string[];
  /** 1 when nobody else moved the branch meanwhile. */
  attempts: number;
}

export interface BranchCommitResult {
  commit: string;
  branch: string;
  /** What the branch held before, `undefined` when it was new. */
  previous: string | undefined;
}

export interface BranchTip {
  branch: string;
  commit: string;
}

/** A chain of commits on the current branch, each its own commit, published together (write-batch.ts). */
export interface CommitBatch {
  /** Number of commits added so far. */
  readonly size: number;
  /** One commit on the batch's tip (its id comes with `publish`); refused (`ledger/conflict`, `ledger/bad-path`, …) without changing the batch. */
  add(options: CommitOptions): Promise<void>;
  /** Writes the objects, then moves the branch once (working tree and index updated once); nothing when empty. */
  publish(): Promise<BatchResult>;
}

export interface CommitResult {
  commit: string;
  /** 1 when nobody else moved the branch meanwhile. */
  attempts: number;
}

export interface LedgerFile {
  path: string;
  oid: string;
  mode: FileMode;
}

export interface ChangedFile {
  path: string;
  /** Blob id before the commit (first parent), `null` when it did not exist. */
  before: string | null;
  /** Blob id after the commit, `null` when it was deleted. */
  after: string | null;
}

export interface CommitInfo {
  oid: string;
  tree: string;
  parents: string[];
  message: string;
  author: Required<Author>;
}

export type RollbackTarget = { commit: string } | { run: string };

export interface RollbackOptions {
  author?: Author;
  /** Who asks for the rollback (the `Skill-Actor` trailer); default `user`. */
  actor?: 'user' | 'agent' | 'curator';
  /** Default `skills`: one root or the library's list. Rollback never touches paths outside them and `.skillgarden/`… */
  skillsRoot?: string | readonly string[];
  /** …except these: files skillgarden itself rewrites, e.g. those matched by the `references` globs that an umbrella merge updates. */
  allowPath?: (path: string) => boolean;
}

export type RollbackResult =
  | { status: 'noop'; reverted: string[] }
  | {
      status: 'reverted';
      commit: string;
      reverted: string[];
      /** The files restored one by one. */
      files: string[];
      /** Folders moved back whole (an archive or a restore undone): one rename each, their files not listed. */
      moved?: Array<{ from: string; to: string }>;
    };

export interface Ledger {
  readonly dir: string;
  readonly backend: LedgerBackend;
  /** The commit HEAD points at; `undefined` in an empty repository. */
  head(): Promise<string | undefined>;
  /** A full commit id for a ref name (`main`, `refs/tags/x`, `HEAD`) or an id; throws `ledger/unknown-ref`. */
  resolve(ref: string): Promise<string>;
  /** The file's bytes at `commit` (default HEAD); `undefined` when absent. */
  readFile(path: string, commit?: string): Promise<Uint8Array | undefined>;
  /** A blob's bytes by its id (a `LedgerFile`'s `oid`): no path walked, no ref read. */
  readBlob(oid: string): Promise<Uint8Array>;
  /** Every file under `prefix` (a folder; `''` for all), sorted by path. */
  listFiles(prefix: string, commit?: string): Promise<LedgerFile[]>;
  readCommit(commit: string): Promise<CommitInfo>;
  /** Files a commit changed against its first parent, sorted by path. */
  changedFiles(commit: string): Promise<ChangedFile[]>;
  /**
   * One commit on the current branch touching exactly `changes`. Refuses a
   * detached HEAD (`ledger/detached-head`), uncommitted edits to the touched
   * files (`ledger/dirty`) and unsafe paths (`ledger/bad-path`).
   */
  commit(options: CommitOptions): Promise<CommitResult>;
  /**
   * Many commits on the current branch, published together: what a curator run writes. Each
   * `add` is checked as `commit` checks it; `publish` moves the branch once, under one lock.
   */
  beginBatch(): CommitBatch;
  /**
   * One commit on a branch that is not checked out (a proposal, a staged write): parent `base`
   * (default HEAD), the branch moved to it whatever it held unless `expectedTip` says otherwise.
   * The index, the working tree and the current branch are not touched.
   */
  commitOnBranch(options: BranchCommitRequest): Promise<BranchCommitResult>;
  /** Branches whose short name starts with `prefix` (e.g. `skillgarden/`), with their tips, sorted. */
  listBranches(prefix: string): Promise<BranchTip[]>;
  /** Deletes a branch that is not checked out; false when it did not exist. `expectedTip` guards against a moved branch. */
  deleteBranch(branch: string, expectedTip?: string): Promise<boolean>;
  /** A lightweight tag `refs/tags/<name>` at `commit` (default HEAD); returns the commit id. */
  tag(name: string, commit?: string): Promise<string>;
  /** Fail-closed revert of one commit or every commit of a curator run, as one commit. */
  rollback(target: RollbackTarget, options?: RollbackOptions): Promise<RollbackResult>;
  /** Releases helper processes (system-git); the ledger is unusable afterwards. */
  close(): Promise<void>;
}
