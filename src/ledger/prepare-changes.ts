import { SkillgardenError } from '../core/errors.js';
import type { FileChange, FileMode } from './ledger.js';
import { folderMode } from './object-store.js';
import { badPath, checkPath } from './paths.js';
import { blobId } from '../store/files.js';

/** A change with its bytes and blob id worked out once, before any lock is taken. */
export interface PreparedChange {
  path: string;
  content: Buffer | null;
  mode: FileMode | typeof folderMode;
  /** For a folder move's two halves (the folder gone from `from`, its tree placed at `to`): the tree's id is set by the batch. */
  move?: { from: string; to: string };
  oid: string | null;
  expected: string | null | undefined;
  /** The bytes `git checkout` would write, when git converts this path (eol, filters); default `content`. */
  worktree?: Buffer;
  /** Git already stored the blob (a converted path). */
  stored?: boolean;
  /** Git converts this path (eol, filters): its working-tree file is hashed by git, as `git status` would. */
  converted?: boolean;
}

export function prepareChanges(changes: readonly FileChange[]): PreparedChange[] {
  if (changes.length === 0) {
    throw new SkillgardenError('ledger/empty-commit', 'A ledger commit needs at least one file change.', { data: {} });
  }
  const seen = new Set<string>();
  const prepared = changes.flatMap((change): PreparedChange[] => {
    checkPath(change.path, { symlink: change.symlink === true });
    if (change.from !== undefined) return prepareMove(change.from, change.path, seen);
    if (seen.has(change.path)) throw badPath(change.path, 'it appears twice in one commit');
    seen.add(change.path);
    // One copy: the caller keeps its bytes (a 223 KB state file per curator transition at 10,000 skills).
    const content =
      change.content === null
        ? null
        : typeof change.content === 'string'
          ? Buffer.from(change.content, 'utf8')
          : Buffer.from(change.content);
    return [
      {
        path: change.path,
        content,
        mode: change.symlink ? '120000' : change.executable ? '100755' : '100644',
        oid: content === null ? null : blobId(content),
        expected: change.expected,
      },
    ];
  });
  refuseMoveOverlap(prepared);
  return prepared;
}

/** Both halves of a folder move; neither folder may hold the other, nor be touched by another change of the commit. */
function prepareMove(from: string, to: string, seen: Set<string>): PreparedChange[] {
  checkPath(from, { symlink: false });
  if (from === to || to.startsWith(`${from}/`) || from.startsWith(`${to}/`)) throw badPath(to, `it cannot be moved into or out of ${from}`);
  for (const path of [from, to]) {
    if (seen.has(path)) throw badPath(path, 'it appears twice in one commit');
    seen.add(path);
  }
  const move = { from, to };
  return [
    { path: from, content: null, mode: folderMode, oid: null, expected: undefined, move },
    { path: to, content: null, mode: folderMode, oid: null, expected: undefined, move },
  ];
}

/** The changes of files, without the halves of folder moves. */
export function fileChanges(changes: readonly PreparedChange[]): PreparedChange[] {
  return changes.filter((c) => c.move === undefined);
}

/** The placing half of each folder move (its `oid` the moved tree). */
export function folderMoves(changes: readonly PreparedChange[]): Array<PreparedChange & { move: { from: string; to: string } }> {
  return changes.filter((c): c is PreparedChange & { move: { from: string; to: string } } => c.move?.to === c.path);
}

/**
 * A moved folder is renamed on disk whole, before the batch's files are written: no other change of
 * the batch may be inside it, at either end, or hold it. `checked`: changes already checked together
 * (a batch's earlier commits), so only the pairs holding one of `changes` are looked at: a run of
 * thousands of commits is not checked again from the start at each one.
 */
export function refuseMoveOverlap(changes: readonly PreparedChange[], checked: readonly PreparedChange[] = []): void {
  const all = [...checked, ...changes];
  // In the order a check of them all together goes, so the same pair is named.
  for (const half of checked) if (half.move !== undefined) for (const other of changes) refuseOverlap(half, other);
  for (const half of changes) if (half.move !== undefined) for (const other of all) refuseOverlap(half, other);
}

function refuseOverlap(half: PreparedChange, other: PreparedChange): void {
  if (other === half || (other.move === half.move && other.path !== half.path)) return;
  const a = half.path;
  const b = other.path;
  if (a === b || b.startsWith(`${a}/`) || a.startsWith(`${b}/`)) {
    throw badPath(
      b,
      `a folder move (${half.move!.from} → ${half.move!.to}) in the same batch touches it; move a folder in a commit of its own`,
    );
  }
}
