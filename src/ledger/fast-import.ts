import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import { identity } from './commit-people.js';
import type { CommitWriter, NewCommitText } from './commit-writer.js';
import { readOnlyError } from './fs-sync.js';
import { folderMode } from './object-store.js';
import { normalizeMessage } from './object-store.js';
import { badPath } from './paths.js';
import type { PreparedChange } from './prepare-changes.js';
import { spawnGit } from './system-git.js';
import type { BlobRef } from './tree-edit.js';

/*
 * Commits through one `git fast-import` kept running (git-fast-import(1)): git builds the trees,
 * hashes and stores every object; each publish is a `checkpoint`, which writes what came since as
 * one delta-compressed pack. `fastimport.unpackLimit=0` keeps even a one-commit pack a pack:
 * loosening it spawns `git unpack-objects` at every checkpoint (a single commit at 1,000 skills:
 * 88 ms p50 against 32 ms, bench/ledger-commit.ts); `git gc --auto` folds the small packs as it
 * does a fetch's. Commits go onto a scratch ref that is `reset` to nothing right after each one, so
 * fast-import moves no ref: the publish step moves the branch, under its lock. `ls` answers what a
 * path holds at a commit, `get-mark` a commit's id. Without `--done`, an end of input (our process
 * killed) is a clean end, not a crash report in the git folder.
 */

const scratch = 'refs/skillgarden/fast-import';

interface Entry {
  mode: string;
  oid: string;
}

export class FastImportWriter implements CommitWriter {
  private child: ChildProcessWithoutNullStreams | undefined;
  private stderr = '';
  private buffer = '';
  private readonly replies: Array<{ resolve: (line: string) => void; reject: (error: Error) => void }> = [];
  /** The last commit not yet checkpointed. */
  private unflushed: string | undefined;
  /** Commits of the running process by id: they are named by mark until fast-import has written them. */
  private marks = new Map<string, string>();
  private nextMark = 1;
  /** What `lookup` found at the tip, for `write` to check the shape of the paths. */
  private probed = new Map<string, Entry | undefined>();

  constructor(
    private readonly dir: string,
    private readonly gitdir: string,
  ) {}

  async lookup(tip: string | undefined, paths: readonly string[]): Promise<Map<string, BlobRef | undefined>> {
    const probes = [...new Set(paths.flatMap((path) => prefixes(path)))];
    const found = tip === undefined ? probes.map(() => undefined) : await Promise.all(probes.map((p) => this.ls(tip, p)));
    this.probed = new Map(probes.map((p, i) => [p, found[i]]));
    return new Map(paths.map((path) => [path, asBlob(this.probed.get(path))]));
  }

  async write(tip: string | undefined, changes: readonly PreparedChange[], commit: NewCommitText): Promise<string> {
    checkShape(changes, this.probed);
    const mark = `:${this.nextMark++}`;
    const parts: Array<string | Buffer> = [`commit ${scratch}\nmark ${mark}\n`];
    parts.push(`author ${identity(commit.author)}\ncommitter ${identity(commit.committer)}\n`, data(normalizeMessage(commit.message)));
    if (tip !== undefined) parts.push(`from ${this.name(tip)}\n`);
    for (const change of changes) {
      if (change.oid === null || change.content === null) parts.push(`D ${quote(change.path)}\n`);
      else if (change.stored || this.probedOid(change.oid)) parts.push(`M ${change.mode} ${change.oid} ${quote(change.path)}\n`);
      else parts.push(`M ${change.mode} inline ${quote(change.path)}\n`, data(change.content));
    }
    // Reset at once: a checkpoint, or the end of input, then finds the scratch ref empty and writes no ref.
    parts.push(`\nreset ${scratch}\n`);
    const id = (
      await this.ask(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p))), `get-mark ${mark}`)
    ).trim();
    this.marks.set(id, mark);
    this.unflushed = mark;
    return id;
  }

  /** `checkpoint`: every object made so far is written (loose when few, else one pack); the process goes on. */
  async flush(): Promise<void> {
    if (this.unflushed === undefined) return;
    const mark = this.unflushed;
    this.unflushed = undefined;
    // Commands run in order: the answer to a later one means the checkpoint is done.
    await this.ask(Buffer.from(`checkpoint\n`), `get-mark ${mark}`);
  }

  /** Ends fast-import (end of input: it writes what is left and moves no ref). */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    this.marks = new Map();
    this.unflushed = undefined;
    await new Promise<void>((done, fail) => {
      child.once('close', (code) => (code === 0 ? done() : fail(this.failure(`exit ${code}`))));
      child.stdin.end();
    });
  }

  private probedOid(oid: string): boolean {
    for (const entry of this.probed.values()) if (entry?.oid === oid) return true;
    return false;
  }

  private name(commit: string): string {
    return this.marks.get(commit) ?? commit;
  }

  private async ls(tip: string, path: string): Promise<Entry | undefined> {
    const line = await this.ask(Buffer.alloc(0), `ls ${this.name(tip)} ${quote(path)}`);
    if (line.startsWith('missing ')) return undefined;
    const [mode = '', , oid = ''] = line.split('\t')[0]!.split(' ');
    return { mode: mode.padStart(6, '0'), oid };
  }

  /** Sends `command` (after `before`) and waits for its one-line answer. */
  private async ask(before: Buffer, command: string): Promise<string> {
    const child = await this.start();
    return new Promise((resolve, reject) => {
      this.replies.push({ resolve, reject });
      if (before.length > 0) child.stdin.write(before);
      child.stdin.write(`${command}\n`);
    });
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
        this.marks = new Map();
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

/** The path and each folder above it, shortest first. */
function prefixes(path: string): string[] {
  const parts = path.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

function asBlob(entry: Entry | undefined): BlobRef | undefined {
  return entry === undefined || entry.mode === folderMode ? undefined : { oid: entry.oid, mode: entry.mode };
}

/** What the plain tree edit (tree-edit.ts) refuses: a folder where a file goes, a file where a folder does. */
function checkShape(changes: readonly PreparedChange[], probed: ReadonlyMap<string, Entry | undefined>): void {
  for (const change of changes) {
    const folders = prefixes(change.path);
    const path = folders.pop()!;
    for (const folder of folders) {
      const mode = probed.get(folder)?.mode;
      if (mode !== undefined && mode !== folderMode) {
        throw badPath(change.path, `${folder} is a ${mode === '120000' ? 'symlink' : 'file'}, not a folder`);
      }
    }
    if (probed.get(path)?.mode === folderMode) throw badPath(path, 'a folder is at that path');
  }
}

function data(bytes: string | Buffer): Buffer {
  const body = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  return Buffer.concat([Buffer.from(`data ${body.length}\n`), body, Buffer.from('\n')]);
}

/** fast-import reads a path to the end of the line; one that starts with a quote or holds a newline is C-quoted. */
function quote(path: string): string {
  if (!/^"|\n/.test(path)) return path;
  return `"${path.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\n/g, '\\n')}"`;
}
