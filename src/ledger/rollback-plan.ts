import type { FileDiff } from './diff-trees.js';
import type { BlobRef } from './tree-edit.js';

/** One file's net change across the commits being reverted. */
export interface NetChange {
  path: string;
  before: BlobRef | null;
  after: BlobRef | null;
}

export type RollbackPlan =
  | { kind: 'refused'; reason: 'changed-since' | 'outside-skills-root' | 'changed-between' | 'orphans'; paths: string[] }
  | { kind: 'noop' }
  | { kind: 'revert'; changes: NetChange[] };

/**
 * Folds the diffs of the target commits (oldest first) into one net change
 * per file. A file some other commit changed between two of them cannot be
 * reverted without losing that change: the plan refuses it.
 */
export function foldDiffs(diffs: readonly (readonly FileDiff[])[]): { net: NetChange[]; gaps: string[] } {
  const net = new Map<string, NetChange>();
  const gaps = new Set<string>();
  for (const diff of diffs) {
    for (const change of diff) {
      const seen = net.get(change.path);
      if (seen && seen.after?.oid !== change.before?.oid) gaps.add(change.path);
      net.set(change.path, { path: change.path, before: seen ? seen.before : change.before, after: change.after });
    }
  }
  return { net: [...net.values()].filter((c) => c.before?.oid !== c.after?.oid || c.before?.mode !== c.after?.mode), gaps: [...gaps] };
}

export interface PlanInput {
  diffs: readonly (readonly FileDiff[])[];
  /** Each touched path's blob at HEAD. */
  head: ReadonlyMap<string, BlobRef | undefined>;
  allowedRoots: readonly string[];
  /** Paths outside those roots that skillgarden itself writes (files matched by the `references` globs, which merges rewrite). */
  allowPath?: (path: string) => boolean;
}

/** Pure: which files to restore, or why nothing may be written. */
export function planRollback(input: PlanInput): RollbackPlan {
  const { net, gaps } = foldDiffs(input.diffs);
  const outside = net
    .map((c) => c.path)
    .filter((path) => !input.allowedRoots.some((root) => root === '' || path.startsWith(`${root}/`)) && !input.allowPath?.(path));
  if (outside.length > 0) return { kind: 'refused', reason: 'outside-skills-root', paths: outside };
  if (gaps.length > 0) return { kind: 'refused', reason: 'changed-between', paths: gaps.sort() };
  const same = (a: BlobRef | null | undefined, b: BlobRef | null | undefined) =>
    (a?.oid ?? null) === (b?.oid ?? null) && (a?.mode ?? null) === (b?.mode ?? null);
  const pending = net.filter((c) => !same(input.head.get(c.path), c.before));
  const changed = pending.filter((c) => !same(input.head.get(c.path), c.after)).map((c) => c.path);
  if (changed.length > 0) return { kind: 'refused', reason: 'changed-since', paths: changed };
  return pending.length === 0 ? { kind: 'noop' } : { kind: 'revert', changes: pending };
}

/**
 * The skill folders whose SKILL.md the revert deletes (the commit created
 * the skill): every other file HEAD holds there must go with it, or the
 * revert would leave a folder with no SKILL.md.
 */
export function listRemovedSkills(changes: readonly NetChange[]): string[] {
  return changes.filter((c) => c.before === null && /(^|\/)SKILL\.md$/.test(c.path)).map((c) => c.path.replace(/\/?SKILL\.md$/, ''));
}

/** The files HEAD holds in those folders that the revert leaves behind. */
export function findOrphans(changes: readonly NetChange[], headFiles: readonly string[]): string[] {
  const reverted = new Set(changes.map((c) => c.path));
  return headFiles.filter((path) => !reverted.has(path)).sort();
}
