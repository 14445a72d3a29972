import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import { inFolder } from './fs-sync.js';
import { acquireLock } from './lock-file.js';
import type { HeldLock, LockOptions } from './lock-file.js';

export type HeadState = { kind: 'branch'; ref: string } | { kind: 'detached'; oid: string };

const oidPattern = /^[0-9a-f]{40}$/;

export function isOid(value: string): boolean {
  return oidPattern.test(value);
}

export async function readHeadState(gitdir: string): Promise<HeadState> {
  const text = readFileSync(join(gitdir, 'HEAD'), 'utf8').trim();
  if (text.startsWith('ref:')) return { kind: 'branch', ref: text.slice(4).trim() };
  if (isOid(text)) return { kind: 'detached', oid: text };
  throw new SkillgardenError('ledger/bad-head', `${join(gitdir, 'HEAD')} holds neither a ref nor a commit id: "${text.slice(0, 60)}".`, {
    data: { path: join(gitdir, 'HEAD') },
  });
}

/**
 * A ref's commit id, loose file first, then packed-refs (as git reads them); `undefined` when unborn.
 * Synchronous reads: see fs-sync.ts.
 */
export async function readRef(gitdir: string, ref: string, depth = 0): Promise<string | undefined> {
  const loose = readText(join(gitdir, ref));
  if (loose !== undefined) {
    const text = loose.trim();
    if (text.startsWith('ref:') && depth < 5) return readRef(gitdir, text.slice(4).trim(), depth + 1);
    return isOid(text) ? text : undefined;
  }
  return readPackedRef(gitdir, ref);
}

async function readPackedRef(gitdir: string, ref: string): Promise<string | undefined> {
  const packed = readText(join(gitdir, 'packed-refs')) ?? '';
  for (const line of packed.split('\n')) {
    if (line.length > 41 && line[40] === ' ' && line.slice(41) === ref) return line.slice(0, 40);
  }
  return undefined;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Takes `<ref>.lock`; the caller re-reads the ref under the lock before it writes. */
export async function lockRef(gitdir: string, ref: string, options: LockOptions): Promise<HeldLock> {
  return acquireLock(join(gitdir, ref), options);
}

export interface ReflogEntry {
  before: string | undefined;
  after: string;
  who: string;
  message: string;
}

/** Appends to the ref's reflog and HEAD's, as git does for a checked-out branch, so `git reflog` can recover. */
export async function appendReflogs(gitdir: string, refs: readonly string[], entry: ReflogEntry): Promise<void> {
  const line = `${entry.before ?? '0'.repeat(40)} ${entry.after} ${entry.who}\t${entry.message.split('\n')[0] ?? ''}\n`;
  for (const ref of refs) {
    const path = join(gitdir, 'logs', ref);
    inFolder(path, () => appendFileSync(path, line));
  }
}

/** Git's `check-ref-format` rules, so a tag we write is one git can read. */
export function isValidRefName(name: string): boolean {
  if (name === '' || name === '@' || name.endsWith('/') || name.endsWith('.')) return false;
  if (/[\x00-\x20\x7f~^:?*[\\]|\.\.|\/\/|@\{/.test(name)) return false;
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}
