/** One commit as a history walker reads it; `time` is the committer time in seconds since the epoch. */
export interface CommitRecord {
  oid: string;
  parents: string[];
  time: number;
  message: string;
}

export type PathChangeStatus = 'added' | 'modified' | 'deleted';

/** A file changed by a commit against its first parent (against nothing for a root commit). */
export interface PathChange {
  status: PathChangeStatus;
  path: string;
  /**
   * For an added or deleted SKILL.md only: the blob added or deleted. A SKILL.md that leaves one
   * folder and arrives in another with the same content is a move (or a rename), not a new skill.
   */
  blob?: string;
  /**
   * For an added SKILL.md only: the blob of the SKILL.md this commit deleted that it continues, found by
   * content when the two differ (a rename edits `name:`, which must match the folder). See edited-renames.ts.
   */
  renamedFrom?: string;
}

export interface HistoryCommit extends CommitRecord {
  changes: PathChange[];
  /** A shallow clone's cut: the parents are missing, so what it "adds" was there before it. */
  boundary?: boolean;
}

/** ISO-8601 in UTC, to the second, as the rest of skillgarden writes times. */
export function formatCommitTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * Parents before children, a first parent's line before the side branch it merges
 * (a depth-first post-order from the heads). Both walkers order their commits with
 * this one function, so they fold history in the same order.
 */
export function orderParentsFirst<T extends CommitRecord>(commits: readonly T[]): T[] {
  const byOid = new Map(commits.map((c) => [c.oid, c]));
  const isParent = new Set(commits.flatMap((c) => c.parents));
  const heads = commits.filter((c) => !isParent.has(c.oid));
  const done = new Set<string>();
  const ordered: T[] = [];
  for (const head of heads) {
    const stack: Array<{ commit: T; next: number }> = [{ commit: head, next: 0 }];
    done.add(head.oid);
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { commit: T; next: number };
      const parentOid = top.commit.parents[top.next++];
      if (parentOid === undefined) {
        ordered.push(top.commit);
        stack.pop();
        continue;
      }
      const parent = byOid.get(parentOid);
      if (parent && !done.has(parentOid)) {
        done.add(parentOid);
        stack.push({ commit: parent, next: 0 });
      }
    }
  }
  return ordered;
}
