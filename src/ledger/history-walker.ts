import type { CommitRecord, HistoryCommit } from '../core/ledger/commit-record.js';
import type { SkillRoots } from '../core/ledger/skill-paths.js';

/** Commits reachable from `head`, minus those reachable from `exclude` (or already `seen`). */
export interface WalkRange {
  head: string;
  exclude: string | null;
  /** Commits folded before; the isomorphic-git walker stops at them. */
  seen: ReadonlySet<string>;
  skillsRoot: SkillRoots;
  /** A shallow clone's cut (`.git/shallow`): these commits' parents are missing. */
  shallow: ReadonlySet<string>;
}

/** One way to read history: the system git (fast) or isomorphic-git (always there). */
export interface HistoryWalker {
  resolveHead(ref: string): Promise<string | null>;
  /** The range's commits in any order, each with its changes against its first parent. */
  readCommits(range: WalkRange): Promise<HistoryCommit[]>;
  /** Commits reachable from `head`, newest first by commit date. */
  readLog(head: string, limit?: number): Promise<CommitRecord[]>;
  /** These commits alone, in any order: what `log` shows, picked from the history cache. */
  readCommitRecords(oids: readonly string[]): Promise<CommitRecord[]>;
  /** The paths of the files under `roots` in the tree of `commit`. */
  listFiles(commit: string, roots: readonly string[]): Promise<string[]>;
  /** These blobs' texts (UTF-8); one the repository lacks (a partial clone) is left out. */
  readBlobs(oids: readonly string[]): Promise<Map<string, string>>;
}

export type HistoryBackend = 'auto' | 'system-git' | 'isomorphic-git';
