import { join } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import { lstatIfAny } from '../store/fs-probe.js';

/**
 * A path a ledger may write: relative, `/`-separated, no `.`/`..` parts,
 * nothing inside `.git`. Throws `ledger/bad-path`.
 */
export function checkPath(path: string): void {
  const reason = badPathReason(path);
  if (reason !== undefined) throw badPath(path, reason);
}

function badPathReason(path: string): string | undefined {
  if (path === '') return 'it is empty';
  if (path.startsWith('/') || /^[a-zA-Z]:/.test(path)) return 'it is absolute';
  if (/[\0\\]/.test(path)) return 'it contains a NUL or a backslash';
  const parts = path.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..')) return 'it has an empty, "." or ".." part';
  if (parts.some((part) => part.toLowerCase() === '.git')) return 'it points into .git';
  return undefined;
}

export function badPath(path: string, reason: string): SkillgardenError {
  return new SkillgardenError(
    'ledger/bad-path',
    `Refusing to write "${path.slice(0, 200)}": ${reason}. Use a repository-relative path like skills/<name>/SKILL.md.`,
    { data: { path, reason } },
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
