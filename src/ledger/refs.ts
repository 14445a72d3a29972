import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import { inFolder } from './fs-sync.js';
import { acquireLock } from './lock-file.js';
import type { HeldLock, LockOptions } from './lock-file.js';

/** A repository's git folders: a path for both, or a linked worktree's own folder and the shared one (see git-dir.ts). */
export type RefDirs = string | { gitdir: string; commondir: string };

/** HEAD and a few namespaces belong to each worktree; every other ref is shared (git-worktree(1), "Refs"). */
export function refFolder(dirs: RefDirs, ref: string): string {
  if (typeof dirs === 'string') return dirs;
  const own = !ref.startsWith('refs/') || /^refs\/(bisect|worktree|rewritten)\//.test(ref);
  return own ? dirs.gitdir : dirs.commondir;
}

export type HeadState = { kind: 'branch'; ref: string } | { kind: 'detached'; oid: string };

const oidPattern = /^[0-9a-f]{40}$/;

export function isOid(value: string): boolean {
  return oidPattern.test(value);
}

export async function readHeadState(dirs: RefDirs): Promise<HeadState> {
  const gitdir = refFolder(dirs, 'HEAD');
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
export async function readRef(dirs: RefDirs, ref: string, depth = 0): Promise<string | undefined> {
  const loose = readText(join(refFolder(dirs, ref), ref));
  if (loose !== undefined) {
    const text = loose.trim();
    if (text.startsWith('ref:') && depth < 5) return readRef(dirs, text.slice(4).trim(), depth + 1);
    return isOid(text) ? text : undefined;
  }
  return readPackedRef(typeof dirs === 'string' ? dirs : dirs.commondir, ref);
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
export async function lockRef(dirs: RefDirs, ref: string, options: LockOptions): Promise<HeldLock> {
  return acquireLock(join(refFolder(dirs, ref), ref), options);
}

export interface ReflogEntry {
  before: string | undefined;
  after: string;
  who: string;
  message: string;
}

/** `core.logAllRefUpdates`: `true` by default in a repository with a working tree, `false` in a bare one. */
export type ReflogPolicy = 'always' | 'true' | 'false';

/**
 * Appends to the ref's reflog and HEAD's, as git does for a checked-out
 * branch, so `git reflog` can recover. Git's rule (refs.c,
 * should_autocreate_reflog): an existing reflog is always appended to; a
 * missing one is created for every ref under `always`, for HEAD and
 * refs/heads, refs/remotes, refs/notes under `true`, never under `false`.
 */
export async function appendReflogs(
  dirs: RefDirs,
  refs: readonly string[],
  entry: ReflogEntry,
  policy: ReflogPolicy = 'true',
): Promise<void> {
  const line = `${entry.before ?? '0'.repeat(40)} ${entry.after} ${entry.who}\t${entry.message.split('\n')[0] ?? ''}\n`;
  for (const ref of refs) {
    const path = join(refFolder(dirs, ref), 'logs', ref);
    const create = policy === 'always' || (policy === 'true' && (ref === 'HEAD' || /^refs\/(heads|remotes|notes)\//.test(ref)));
    if (!create && !existsSync(path)) continue;
    inFolder(path, () => appendFileSync(path, line));
  }
}

/** Git's `check-ref-format` rules, so a tag we write is one git can read. */
export function isValidRefName(name: string): boolean {
  if (name === '' || name === '@' || name.endsWith('/') || name.endsWith('.')) return false;
  if (/[\x00-\x20\x7f~^:?*[\\]|\.\.|\/\/|@\{/.test(name)) return false;
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}
