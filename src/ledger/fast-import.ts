import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import { identity } from './commit-people.js';
import type { CommitWriter, NewCommitText } from './commit-writer.js';
import { readOnlyError } from './fs-sync.js';
import { normalizeMessage } from './object-store.js';
import type { PreparedChange } from './prepare-changes.js';
import type { RepoLayout } from './git-dir.js';
import { readRef } from './refs.js';
import { runGitChecked, spawnGit } from './system-git.js';

/*
 * Commits through one `git fast-import` kept running (git-fast-import(1)): git builds the trees,
 * hashes and stores every object; each publish is a `checkpoint`, which writes what came since as
 * one delta-compressed pack. `fastimport.unpackLimit=0` keeps even a one-commit pack a pack:
 * loosening it spawns `git unpack-objects` at every checkpoint (a single commit at 1,000 skills:
 * 88 ms p50 against 32 ms, bench/ledger-commit.ts); `git gc --auto` folds the small packs as it
 * does a fetch's. Commits go onto a scratch ref that is `reset` to nothing before each checkpoint
 * and at the end, so fast-import moves no ref (only a process killed mid-batch leaves the scratch
 * ref behind): the publish step moves the branch, under its lock. Commits are only sent: their
 * checks were made on the batch's own tree (chain-tree.ts), and `get-mark` asks their ids once, at
 * the checkpoint. Without `--done`, an end of input (our process killed) is a clean end, not a
 * crash report in the git folder.
 */

const scratch = 'refs/skillgarden/fast-import';

export class FastImportWriter implements CommitWriter {
  private child: ChildProcessWithoutNullStreams | undefined;
  private stderr = '';
  private buffer = '';
  private readonly replies: Array<{ resolve: (line: string) => void; reject: (error: Error) => void }> = [];
  /** The last commit not yet checkpointed. */
  private unflushed: string | undefined;
  private nextMark = 1;

  constructor(
    private readonly dir: string,
    private readonly gitdir: string,
  ) {}

  async write(tip: string | undefined, changes: readonly PreparedChange[], commit: NewCommitText): Promise<string> {
    const mark = `:${this.nextMark++}`;
    // The scratch branch keeps the tip's trees in memory from one commit to the next; a root commit starts it afresh.
    const parts: Array<string | Buffer> = [`${tip === undefined ? `reset ${scratch}\n` : ''}commit ${scratch}\nmark ${mark}\n`];
    parts.push(`author ${identity(commit.author)}\ncommitter ${identity(commit.committer)}\n`, ...data(normalizeMessage(commit.message)));
    if (tip !== undefined) parts.push(`from ${tip}\n`);
    for (const change of changes) {
      // A folder's tree is placed by its id (`M 040000`); `D` of a folder removes it whole.
      if (change.move && change.oid !== null) parts.push(`M ${change.mode} ${change.oid} ${quote(change.path)}\n`);
      else if (change.oid === null || change.content === null) parts.push(`D ${quote(change.path)}\n`);
      else if (change.stored) parts.push(`M ${change.mode} ${change.oid} ${quote(change.path)}\n`);
      else parts.push(`M ${change.mode} inline ${quote(change.path)}\n`, ...data(change.content));
    }
    parts.push('\n');
    // Nothing to wait for: a commit fast-import refuses ends the process, and `flush` reports it.
    // Written part by part: joining them copied each file's bytes twice more.
    const { stdin } = await this.start();
    // Corked and uncorked in this tick: one writev, handed to the pipe before `add` returns (a caller killed right
    // after must still leave its commits to fast-import, which keeps them on the scratch ref).
    stdin.cork();
    for (const part of parts) stdin.write(part);
    stdin.uncork();
    this.unflushed = mark;
    return mark;
  }

  /** `checkpoint`: every object made so far is written as one pack; the process goes on. Then the marks' ids. */
  async flush(names: readonly string[]): Promise<string[]> {
    const marks = [...new Set([...names.filter((name) => name.startsWith(':')), ...(this.unflushed ? [this.unflushed] : [])])];
    if (marks.length === 0) return [...names];
    // Reset first: the checkpoint then finds the scratch ref empty and writes no ref.
    const checkpoint = this.unflushed ? `reset ${scratch}\ncheckpoint\n` : '';
    this.unflushed = undefined;
    // Commands run in order: the answers to the later ones mean the checkpoint is done.
    const ids = await this.exchange(Buffer.from(checkpoint + marks.map((mark) => `get-mark ${mark}\n`).join('')), marks.length);
    const byMark = new Map(marks.map((mark, i) => [mark, ids[i]!.trim()]));
    return names.map((name) => byMark.get(name) ?? name);
  }

  /** Ends fast-import (end of input: it writes what is left and moves no ref). */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    this.unflushed = undefined;
    await new Promise<void>((done, fail) => {
      child.once('close', (code) => (code === 0 ? done() : fail(this.failure(`exit ${code}`))));
      child.stdin.end(`reset ${scratch}\n`);
    });
  }

  /** Sends `bytes` and waits for the `count` one-line answers of the commands in them. */
  private async exchange(bytes: Buffer, count: number): Promise<string[]> {
    const child = await this.start();
    const replies = Array.from({ length: count }, () => new Promise<string>((resolve, reject) => this.replies.push({ resolve, reject })));
    child.stdin.write(bytes);
    return Promise.all(replies);
  }

  private async start(): Promise<ChildProcessWithoutNullStreams> {
    if (this.child) return this.child;
    const child = spawnGit(['-c', 'fastimport.unpackLimit=0', '--git-dir', this.gitdir, 'fast-import', '--quiet'], { cwd: this.dir });
    this.stderr = '';
    this.buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.drain(chunk));
    child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => this.failAll(error));
    child.on('close', (code) => {
      if (code !== 0) this.cleanUpAfter(child.pid);
      if (this.child === child) {
        this.child = undefined;
        this.unflushed = undefined;
      }
      this.failAll(this.failure(`exit ${code}`));
    });
    this.child = child;
    return child;
  }

  /**
   * A fatal error leaves a report in the git folder (ours is the error we throw), and may leave the
   * `.keep` of a pack it could not finish: the next fast-import, building the same pack, would stop on it.
   */
  private cleanUpAfter(pid: number | undefined): void {
    rmSync(join(this.gitdir, `fast_import_crash_${pid}`), { force: true });
    const packs = join(this.gitdir, 'objects', 'pack');
    const names = new Set(readdirSync(packs));
    for (const name of names)
      if (name.endsWith('.keep') && !names.has(name.replace(/\.keep$/, '.pack'))) rmSync(join(packs, name), { force: true });
  }

  private drain(chunk: string): void {
    this.buffer += chunk;
    for (let newline = this.buffer.indexOf('\n'); newline >= 0; newline = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      this.replies.shift()?.resolve(line);
    }
  }

  private failAll(error: Error): void {
    for (const reply of this.replies.splice(0)) reply.reject(error);
  }

  /** Git's own words; a git folder it may not write to is `ledger/read-only`, as for the native writer. */
  private failure(how: string): Error {
    const text = this.stderr.trim();
    const path = /'([^']+)'/.exec(text)?.[1];
    const errno = /Permission denied/.test(text)
      ? 'EACCES'
      : /Read-only file system/.test(text)
        ? 'EROFS'
        : /not permitted/.test(text)
          ? 'EPERM'
          : '';
    const readOnly = errno ? readOnlyError(Object.assign(new Error(text), { code: errno, path: path ?? this.gitdir })) : undefined;
    return (
      readOnly ??
      new SkillgardenError('ledger/git-failed', `git fast-import failed in ${this.dir} (${how}): ${text}`, {
        data: { dir: this.dir, stderr: text },
      })
    );
  }
}

/** What fast-import writes into the `.keep` of a pack until it is done with it (git's fast-import.c). */
const keepMessage = 'fast-import';
/** A live fast-import holds its `.keep` for the moment between writing a pack and moving refs; a minute is long gone. */
const keepGraceMs = 60_000;

export type FastImportLeftover = { kind: 'ref'; ref: string; oid: string } | { kind: 'keep'; path: string };

/**
 * What a batch killed mid-way leaves: the scratch ref (fast-import, at the end of its input,
 * writes the commits not yet checkpointed there) and, when fast-import itself was killed between
 * writing a pack and finishing, that pack's `.keep`, which would keep it out of every `git gc`.
 */
export async function readFastImportLeftovers(layout: RepoLayout, now: number): Promise<FastImportLeftover[]> {
  const found: FastImportLeftover[] = [];
  const oid = await readRef(layout, scratch);
  if (oid !== undefined) found.push({ kind: 'ref', ref: scratch, oid });
  const packs = join(layout.commondir, 'objects', 'pack');
  let names: string[] = [];
  try {
    names = readdirSync(packs).filter((name) => name.endsWith('.keep'));
  } catch {
    return found;
  }
  for (const name of names) {
    const path = join(packs, name);
    try {
      if (now - statSync(path).mtimeMs > keepGraceMs && readFileSync(path, 'utf8').trim() === keepMessage)
        found.push({ kind: 'keep', path });
    } catch {
      // Gone meanwhile: nothing left.
    }
  }
  return found;
}

/** Deletes the scratch ref only while it holds what was read (git's own compare-and-delete); removes a `.keep`. */
export async function removeFastImportLeftover(layout: RepoLayout, leftover: FastImportLeftover): Promise<void> {
  if (leftover.kind === 'keep') rmSync(leftover.path, { force: true });
  else await runGitChecked(['--git-dir', layout.gitdir, 'update-ref', '-d', leftover.ref, leftover.oid], { cwd: layout.dir });
}

function data(bytes: string | Buffer): Array<string | Buffer> {
  return typeof bytes === 'string' ? [`data ${Buffer.byteLength(bytes)}\n${bytes}\n`] : [`data ${bytes.length}\n`, bytes, '\n'];
}

/** fast-import reads a path to the end of the line; one that starts with a quote or holds a newline is C-quoted. */
function quote(path: string): string {
  return /^"|\n/.test(path) ? `"${escape(path)}"` : path;
}

function escape(path: string): string {
  return path.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\n/g, '\\n');
}
