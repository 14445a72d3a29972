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

/**
 * A revert that deletes every file under one folder and restores the same files (same ids, same modes) under
 * another is a folder move back (an archive, a restore): found here so it is written as one tree rename, not
 * file by file. `undefined` when the changes are anything else.
 */
export function findFolderMove(changes: readonly NetChange[]): { from: string; to: string; paths: Set<string> } | undefined {
  const deleted = changes.filter((c) => c.before === null && c.after !== null);
  const restored = changes.filter((c) => c.after === null && c.before !== null);
  if (deleted.length === 0 || deleted.length !== restored.length) return undefined;
  const from = commonFolder(deleted.map((c) => c.path));
  const to = commonFolder(restored.map((c) => c.path));
  if (!from || !to || from === to || from.startsWith(`${to}/`) || to.startsWith(`${from}/`)) return undefined;
  const moved = new Map(deleted.map((c) => [c.path.slice(from.length + 1), c.after!]));
  for (const c of restored) {
    const blob = moved.get(c.path.slice(to.length + 1));
    if (blob?.oid !== c.before!.oid || blob.mode !== c.before!.mode) return undefined;
  }
  return { from, to, paths: new Set([...deleted, ...restored].map((c) => c.path)) };
}

/** The deepest folder holding every path ('' when they share none). */
function commonFolder(paths: readonly string[]): string {
  let common = paths[0]!.split('/').slice(0, -1);
  for (const path of paths) {
    const parts = path.split('/');
    let i = 0;
    while (i < common.length && i < parts.length - 1 && common[i] === parts[i]) i += 1;
    common = common.slice(0, i);
  }
  return common.join('/');
}
