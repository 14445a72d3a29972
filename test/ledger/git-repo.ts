import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Author } from '../../src/ledger/ledger.js';
import { git } from '../helpers/repo.js';

/** Fixed dates keep commit ids reproducible. */
export const fixedAuthor: Author = { name: 'Ada Test', email: 'ada@example.com', timestamp: 1_780_000_000, timezoneOffset: 0 };

export { git };

/** A fresh repository on branch `main`, in its own folder under the system temp dir. */
export function makeRepo(prefix = 'skillgarden-ledger-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Ada Test');
  git(dir, 'config', 'user.email', 'ada@example.com');
  git(dir, 'config', 'gc.auto', '0');
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
