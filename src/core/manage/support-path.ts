import { posix } from 'node:path';
import { supportDirs } from '../layout.js';
import { findUnsafePath } from '../safe-path.js';

export const maxSupportFileBytes = 1024 * 1024;

/**
 * Why a support-file path is refused, or undefined when it is fine: only
 * relative paths under references/, templates/, scripts/ or assets/, never
 * `..`, never SKILL.md itself.
 */
export function supportPathProblem(path: string): string | undefined {
  if (path === '') return 'the path is empty';
  if (path.includes('\\')) return 'use "/" to separate folders';
  if (path.startsWith('/') || /^[a-z]:/i.test(path)) return 'the path is absolute';
  const normalized = posix.normalize(path);
  if (normalized !== path.replace(/\/+$/, '') || path.split('/').some((part) => part === '..' || part === '.' || part === '')) {
    return 'the path has an empty, "." or ".." part';
  }
  const [top, ...rest] = path.split('/');
  if (!(supportDirs as readonly string[]).includes(top ?? '') || rest.length === 0) {
    return `support files live under ${supportDirs.map((d) => `${d}/`).join(', ')}`;
  }
  if (rest.some((part) => part.startsWith('.git'))) return 'git metadata cannot be written';
  // What git would refuse on some platform (`git~1`, `CON`, `.g\u200cit`, …): refused here before it reaches the ledger.
  return findUnsafePath(path)?.reason;
}
