import { SkillgardenError } from '../core/errors.js';
import type { FileChange, FileMode } from './ledger.js';
import { badPath, checkPath } from './paths.js';
import { hashBlob } from './worktree.js';

/** A change with its bytes and blob id worked out once, before any lock is taken. */
export interface PreparedChange {
  path: string;
  content: Buffer | null;
  mode: FileMode;
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
  return changes.map((change) => {
    checkPath(change.path, { symlink: change.symlink === true });
    if (seen.has(change.path)) throw badPath(change.path, 'it appears twice in one commit');
    seen.add(change.path);
    // One copy: the caller keeps its bytes (a 223 KB state file per curator transition at 10,000 skills).
    const content =
      change.content === null
        ? null
        : typeof change.content === 'string'
          ? Buffer.from(change.content, 'utf8')
          : Buffer.from(change.content);
    return {
      path: change.path,
      content,
      mode: change.symlink ? '120000' : change.executable ? '100755' : '100644',
      oid: content === null ? null : hashBlob(content),
      expected: change.expected,
    };
  });
}
