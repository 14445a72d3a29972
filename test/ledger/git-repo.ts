import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { isSkillgardenError } from '../../src/core/errors.js';
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

/** Awaits a promise that must reject with the SkillgardenError `code`; returns the error's data. */
export async function rejectsWith(promise: Promise<unknown>, code: string): Promise<Record<string, unknown>> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isSkillgardenError(error, code), `expected ${code}, got ${String(error)}`).toBe(true);
  return (error as { data: Record<string, unknown> }).data;
}
