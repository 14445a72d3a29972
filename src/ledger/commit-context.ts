import type { IndexCache } from './index-file.js';
import type { Author } from './ledger.js';
import type { ObjectStore } from './object-store.js';

/** What the write path needs from an open ledger. */
export interface CommitContext {
  dir: string;
  gitdir: string;
  store: ObjectStore;
  lockTimeoutMs: number;
  now: () => Date;
  defaultAuthor: () => Promise<Pick<Author, 'name' | 'email'>>;
  /** The last index this process read or wrote (mutable). */
  indexCache: IndexCache;
  /** Test seam: called at named points of a commit (a crash test kills the process there). */
  onStage?: (stage: CommitStage) => void | Promise<void>;
}

export type CommitStage = 'objects-written' | 'index-written' | 'ref-updated';
