import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Author } from '../../src/ledger/ledger.js';

/** Fixed dates keep commit ids reproducible. */
export const fixedAuthor: Author = { name: 'Ada Test', email: 'ada@example.com', timestamp: 1_780_000_000, timezoneOffset: 0 };

const gitEnv = {
  GIT_AUTHOR_DATE: '1780000000 +0000',
  GIT_COMMITTER_DATE: '1780000000 +0000',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: tmpdir(),
};

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, env: { ...process.env, ...gitEnv }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A fresh repository on branch `main`, in its own folder under the system temp dir. */
export function makeRepo(prefix = 'skillgarden-ledger-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Ada Test');
  git(dir, 'config', 'user.email', 'ada@example.com');
  git(dir, 'config', 'gc.auto', '0');
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
