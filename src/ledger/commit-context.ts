import type { RepoLayout } from './git-dir.js';
import type { CommitWriter } from './commit-writer.js';
import type { Identities } from './identity.js';
import type { IndexCache } from './index-file.js';
import type { LedgerBackend } from './ledger.js';
import type { ObjectStore } from './object-store.js';
import type { RepoSetup } from './repo-setup.js';

/** What the write path needs from an open ledger. */
export interface CommitContext {
  dir: string;
  /** This worktree's git folder (HEAD, index); refs and objects live in `layout.commondir`. */
  gitdir: string;
  layout: RepoLayout;
  backend: LedgerBackend;
  store: ObjectStore;
  /** The repository's settings that decide how a commit is written (read once, at open). */
  setup: RepoSetup;
  lockTimeoutMs: number;
  now: () => Date;
  /** Author and committer as git resolves them (asked on the first commit, then kept). */
  identities: () => Promise<Identities>;
  /** The last index this process read or wrote (mutable). */
  indexCache: IndexCache;
  /** Where commits are built: git fast-import with the system git, else the object store. */
  writer: CommitWriter;
  /** Test seam: called at named points of a commit (a crash test kills the process there). */
  onStage?: (stage: CommitStage) => void | Promise<void>;
}

export type CommitStage = 'objects-written' | 'index-written' | 'ref-updated';
