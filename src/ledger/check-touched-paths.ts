import { SkillgardenError } from '../core/errors.js';
import type { GitIndex } from './git-index.js';
import type { StagedOid } from './git-plumbing.js';
import { findEntry, readEntryOid } from './git-index.js';
import { badPath, checkNoSymlink } from './paths.js';
import type { PreparedChange } from './prepare-changes.js';
import type { BlobRef } from './tree-edit.js';
import { readWorktreeFile } from './worktree.js';

/** `expected` says which version the caller read; anything else means someone else wrote meanwhile. */
export function checkExpected(changes: readonly PreparedChange[], before: ReadonlyMap<string, BlobRef | undefined>): void {
  const stale = changes.filter((c) => c.expected !== undefined && (before.get(c.path)?.oid ?? null) !== c.expected);
  if (stale.length === 0) return;
  const paths = stale.map((c) => c.path);
  throw new SkillgardenError(
    'ledger/conflict',
    `Another commit changed ${paths.join(', ')} since you read ${paths.length === 1 ? 'it' : 'them'}. Read the current version and apply your change again.`,
    { data: { paths } },
  );
}

/**
 * Refuses to overwrite uncommitted edits: each touched file in the working
 * tree (and in the index, when given) must match the commit we build on, or
 * already hold exactly what we are about to write.
 */
export async function checkClean(
  dir: string,
  changes: readonly PreparedChange[],
  before: ReadonlyMap<string, BlobRef | undefined>,
  index?: GitIndex | ReadonlyMap<string, StagedOid>,
  /** Blob ids git computed for files it converts (clean filter, eol); others are hashed here. */
  worktreeOids: ReadonlyMap<string, string> = new Map(),
): Promise<void> {
  const dirty: string[] = [];
  const found: Record<string, { head: string | null; worktree: string | null; index?: string | null }> = {};
  for (const change of changes) {
    // The seam where every path is checked before anything is written is prepareChanges; here only what the tree holds.
    // Deleting a link, or putting a link where one is, touches the link itself only.
    await checkNoSymlink(dir, change.path, change.content !== null && change.mode !== '120000');
    const base = before.get(change.path)?.oid ?? null;
    const file = await readWorktreeFile(dir, change.path);
    if (file.kind === 'directory') throw badPath(change.path, 'a folder is at that path');
    const worktree = file.kind === 'absent' ? null : (worktreeOids.get(change.path) ?? file.oid);
    const clean = (oid: string | null) => oid === base || oid === change.oid;
    const staged = index && readIndexOid(index, change.path);
    if (!clean(worktree) || (staged !== undefined && !clean(staged))) {
      dirty.push(change.path);
      found[change.path] = { head: base, worktree, ...(staged !== undefined ? { index: staged } : {}) };
    }
  }
  if (dirty.length === 0) return;
  throw dirtyError(dirty, found);
}

export function dirtyError(dirty: readonly string[], found: Record<string, unknown>): SkillgardenError {
  return new SkillgardenError(
    'ledger/dirty',
    `Uncommitted changes in ${dirty.join(', ')} would be overwritten. Commit them (git add + git commit) or discard them (git restore), then retry. If a skillgarden write was interrupted there, \`skillgarden doctor\` says so and \`skillgarden doctor --fix\` puts those files back.`,
    { data: { paths: dirty, found } },
  );
}

/** The entry's oid, null when absent, or the literal 'conflict' (an oid is 40 or 64 hex digits, never that word). */
function readIndexOid(index: GitIndex | ReadonlyMap<string, StagedOid>, path: string): string | null {
  if (!isGitIndex(index)) return index.get(path) ?? null;
  const at = findEntry(index.entries, path);
  const entry = index.entries[at];
  if (entry?.path !== path) return null;
  const { oid, stage } = readEntryOid(entry);
  return stage === 0 && index.entries[at + 1]?.path !== path ? oid : 'conflict';
}

function isGitIndex(index: GitIndex | ReadonlyMap<string, StagedOid>): index is GitIndex {
  return !(index instanceof Map);
}
