import { join } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import { findUnsafePath, type SafePathOptions, type UnsafePath } from '../core/safe-path.js';
import { lstatIfAny } from '../store/fs-probe.js';

/**
 * A path a ledger may write: relative, `/`-separated, and safe for git on every platform
 * (core/safe-path.ts). Throws `ledger/bad-path` with the rule's code in `data.rule`.
 */
export function checkPath(path: string, options: SafePathOptions = {}): void {
  const problem = findUnsafePath(path, options);
  if (problem !== undefined) throw badPath(path, problem.reason, problem.code);
}

export function badPath(path: string, reason: string, rule?: UnsafePath['code']): SkillgardenError {
  return new SkillgardenError(
    'ledger/bad-path',
    `Refusing to write "${path.slice(0, 200)}": ${reason}. Use a repository-relative path like skills/<name>/SKILL.md.`,
    { data: { path, reason, ...(rule ? { rule } : {}) } },
  );
}

/**
 * Refuses a path whose folders are symlinks in the working tree (a write
 * would land wherever they point), and the file itself when `fileItself`:
 * a link is replaced or removed, never written through, but a regular file
 * is not silently put where a link was.
 */
export async function checkNoSymlink(dir: string, path: string, fileItself = true): Promise<void> {
  const parts = path.split('/');
  for (let i = 1; i <= (fileItself ? parts.length : parts.length - 1); i += 1) {
    const info = lstatIfAny(join(dir, ...parts.slice(0, i)));
    if (info === undefined) return;
    if (info.isSymbolicLink()) throw badPath(path, `${parts.slice(0, i).join('/')} is a symlink`);
  }
}
