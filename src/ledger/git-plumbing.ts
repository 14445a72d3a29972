import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import type { HeldLock } from './lock-file.js';
import type { NewCommit } from './object-store.js';
import { formatTimezone, normalizeMessage } from './object-store.js';
import { runGit, runGitChecked } from './system-git.js';

/** A staged blob id, or `'conflict'` for an unmerged path. */
export type StagedOid = string;

/*
 * The parts of a commit where git's own rules decide and the ledger asks the
 * git on the PATH: signing, eol conversion and filters, and index formats the
 * native writer cannot keep. Each runs only in a repository that needs it, so
 * the common commit spawns nothing.
 */

/** `git commit-tree -S`: git signs as configured (`gpg.format` openpgp, ssh or x509, `user.signingKey`). */
export async function writeSignedCommit(dir: string, commit: NewCommit): Promise<string> {
  const who = (prefix: string, person: NewCommit['author']) => ({
    [`GIT_${prefix}_NAME`]: person.name,
    [`GIT_${prefix}_EMAIL`]: person.email,
    [`GIT_${prefix}_DATE`]: `${person.timestamp} ${formatTimezone(person.timezoneOffset)}`,
  });
  const args = ['commit-tree', '-S', ...commit.parents.flatMap((p) => ['-p', p]), '-F', '-', commit.tree];
  const result = await runGit(args, {
    cwd: dir,
    input: normalizeMessage(commit.message),
    env: { ...who('AUTHOR', commit.author), ...who('COMMITTER', commit.committer ?? commit.author) },
  });
  if (result.code === 0) return result.stdout.toString('utf8').trim();
  throw new SkillgardenError(
    'ledger/sign-failed',
    `commit.gpgSign is set in ${dir}, and git could not sign the commit: ${result.stderr.trim().split('\n').slice(-2).join(' ')}. Nothing was written. Fix the signing key (user.signingKey, gpg.format, the agent), or unset commit.gpgSign.`,
    { data: { dir, stderr: result.stderr } },
  );
}

/** The blob git stores for `content` at `path` (clean filter, eol), written by git: `git hash-object -w --path`. */
export async function writeConvertedBlob(dir: string, path: string, content: Uint8Array): Promise<string> {
  return (await runGitChecked(['hash-object', '-w', '--stdin', `--path=${path}`], { cwd: dir, input: content })).toString('utf8').trim();
}

/**
 * What `git checkout` writes for each blob at its path (smudge filter, eol):
 * `git cat-file --filters --path`, one per blob (git 2.39's `--batch
 * --filters` ignores the path given on its input lines and converts nothing).
 */
export async function readCheckoutBytes(dir: string, blobs: ReadonlyArray<{ path: string; oid: string }>): Promise<Map<string, Buffer>> {
  const bytes = await mapLimited(blobs, (b) => runGitChecked(['cat-file', '--filters', `--path=${b.path}`, b.oid], { cwd: dir }));
  return new Map(blobs.map((b, i) => [b.path, bytes[i]!]));
}

/** Blob ids of working-tree files as git would stage them (clean filter, eol): one `hash-object --stdin-paths`. */
export async function hashWorktreeFiles(dir: string, paths: readonly string[]): Promise<Map<string, string>> {
  if (paths.length === 0) return new Map();
  const output = await runGitChecked(['hash-object', '--stdin-paths'], { cwd: dir, input: paths.map((p) => `${p}\n`).join('') });
  const oids = output.toString('utf8').trim().split('\n');
  return new Map(paths.map((p, i) => [p, oids[i] ?? '']));
}

/** Staged blob ids (`'conflict'` for an unmerged path) read by git, for index formats the native reader refuses. */
export async function readStagedWithGit(dir: string, indexFile: string, paths: readonly string[]): Promise<Map<string, StagedOid>> {
  const output = await runGitChecked(['ls-files', '-s', '-z', '--', ...paths.map((p) => `:(literal)${p}`)], {
    cwd: dir,
    env: { GIT_INDEX_FILE: indexFile },
  });
  const staged = new Map<string, StagedOid>();
  for (const entry of output.toString('utf8').split('\0').filter(Boolean)) {
    const match = /^\d+ ([0-9a-f]+) (\d)\t(.*)$/s.exec(entry);
    if (!match) continue;
    staged.set(match[3]!, match[2] === '0' && !staged.has(match[3]!) ? match[1]! : 'conflict');
  }
  return staged;
}

/**
 * Git updates the index (v4, split or sparse index, every extension kept as
 * git keeps it) while we hold `index.lock`: it works on a copy named by
 * `GIT_INDEX_FILE`, hashing the files just written, and the copy becomes the
 * lock's content. `git update-index --add --remove` stages exactly `paths`.
 */
export async function updateIndexWithGit(
  dir: string,
  gitdir: string,
  lock: HeldLock,
  paths: readonly string[],
  durable: boolean,
): Promise<void> {
  const copy = join(gitdir, `index.skillgarden-${process.pid}`);
  try {
    copyFileSync(join(gitdir, 'index'), copy);
    await runGitChecked(['update-index', '--add', '--remove', '-z', '--stdin'], {
      cwd: dir,
      env: { GIT_INDEX_FILE: copy },
      input: paths.map((p) => `${p}\0`).join(''),
    });
    await lock.commit(readFileSync(copy), { durable });
  } finally {
    rmSync(copy, { force: true });
    rmSync(`${copy}.lock`, { force: true });
  }
}

/** A few git processes at a time: a 400-file move under autocrlf must not start 400 at once. */
export async function mapLimited<T, R>(items: readonly T[], run: (item: T) => Promise<R>, limit = 8): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await run(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
