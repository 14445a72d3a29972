import { lstatSync, mkdirSync, renameSync, rmdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { lstatIfAny } from '../store/fs-probe.js';
import { dirtyError } from './check-touched-paths.js';
import { listTree } from './diff-trees.js';
import type { GitIndex, IndexEntry } from './git-index.js';
import { findEntry, readEntryOid } from './git-index.js';
import type { StagedOid } from './git-plumbing.js';
import type { ObjectStore } from './object-store.js';
import type { PreparedChange } from './prepare-changes.js';
import type { BlobRef } from './tree-edit.js';
import { runGitChecked } from './system-git.js';
import { readWorktreeFile } from './worktree.js';

/** A folder move as publish carries it out: the files of the moved tree, relative to the folder. */
export interface FolderMove {
  from: string;
  to: string;
  files: Array<BlobRef & { path: string }>;
}

/** The files of each moved tree: read from the trees alone, no blob. */
export async function listMoves(store: ObjectStore, moves: readonly PreparedChange[]): Promise<FolderMove[]> {
  const listed: FolderMove[] = [];
  for (const half of moves) listed.push({ from: half.move!.from, to: half.move!.to, files: await listTree(store, half.oid!) });
  return listed;
}

/** Every file path a move touches, at both ends: what the intent journal names, so `doctor --fix` can put them back. */
export function movedPaths(moves: readonly FolderMove[]): string[] {
  return moves.flatMap((m) => m.files.flatMap((f) => [`${m.from}/${f.path}`, `${m.to}/${f.path}`]));
}

/**
 * Refuses a move that would carry uncommitted work or land on something: the index must hold exactly the moved tree
 * under `from` and nothing under `to`, and each working-tree file must be the committed one. As `git status` does, a
 * file whose stat data match its index entry (and is older than the index) is taken as clean unread; only the others
 * are hashed. With the system git, git makes that stat check (`diff-files`: in C, on threads; 100,000 `lstat`s from
 * JavaScript cost a second and more). Untracked files in the folder move with it, as with `git mv`.
 */
export async function checkMovesClean(
  dir: string,
  gitdir: string,
  moves: readonly FolderMove[],
  index: GitIndex | ReadonlyMap<string, StagedOid>,
  options: { systemGit?: boolean } = {},
): Promise<void> {
  const indexMtimeNs = lstatIfAny(join(gitdir, 'index')) === undefined ? 0n : statSync(join(gitdir, 'index'), { bigint: true }).mtimeNs;
  const dirty: string[] = [];
  const statDirty = options.systemGit && moves.length > 0 && 'version' in index ? await listStatDirty(dir, moves) : undefined;
  for (const move of moves) {
    if (lstatIfAny(join(dir, move.to)) !== undefined) dirty.push(move.to);
    if (!lstatIfAny(join(dir, move.from))?.isDirectory()) dirty.push(move.from);
    const staged = stagedUnder(index, move);
    if (staged.size !== move.files.length || [...stagedUnder(index, { ...move, from: move.to }).keys()].length > 0) dirty.push(move.from);
    for (const file of move.files) {
      const path = `${move.from}/${file.path}`;
      const entry = staged.get(file.path);
      const unread = statDirty ? !statDirty.has(path) : entry?.raw !== undefined && statMatches(join(dir, path), entry.raw, indexMtimeNs);
      if (entry?.oid !== file.oid) dirty.push(path);
      else if (!unread && !(await worktreeMatches(dir, path, file))) dirty.push(path);
      if (dirty.length >= 10) break;
    }
  }
  if (dirty.length > 0) throw dirtyError([...new Set(dirty)], {});
}

/** The files under the moved folders whose stat data differ from their index entries, or that git judged racy and changed. */
async function listStatDirty(dir: string, moves: readonly FolderMove[]): Promise<Set<string>> {
  const out = await runGitChecked(['--literal-pathspecs', 'diff-files', '--name-only', '-z', '--', ...moves.map((m) => m.from)], {
    cwd: dir,
  });
  return new Set(out.toString('utf8').split('\0').filter(Boolean));
}

/** The index's stage-0 entries under the folder, by path relative to it (`conflict` entries never match an id). */
function stagedUnder(
  index: GitIndex | ReadonlyMap<string, StagedOid>,
  move: Pick<FolderMove, 'from'>,
): Map<string, { oid: string; raw?: Buffer }> {
  const prefix = `${move.from}/`;
  const found = new Map<string, { oid: string; raw?: Buffer }>();
  if (!('version' in index)) {
    for (const [path, oid] of index) if (path.startsWith(prefix)) found.set(path.slice(prefix.length), { oid });
    return found;
  }
  const { entries } = index;
  for (let at = findEntry(entries, prefix); at < entries.length && entries[at]!.path.startsWith(prefix); at += 1) {
    const entry = entries[at]!;
    const { oid, stage } = readEntryOid(entry);
    found.set(entry.path.slice(prefix.length), { oid: stage === 0 ? oid : 'conflict', raw: entry.raw });
  }
  return found;
}

/** Git's stat check (size, mtime, inode, mode), racy-clean aware: a file changed in the index's own second is hashed. */
function statMatches(full: string, raw: Buffer, indexMtimeNs: bigint): boolean {
  let stat;
  try {
    stat = lstatSync(full, { bigint: true });
  } catch {
    return false;
  }
  const mtimeNs = BigInt(raw.readUInt32BE(8)) * 1_000_000_000n + BigInt(raw.readUInt32BE(12));
  return (
    mtimeNs === stat.mtimeNs &&
    BigInt(raw.readUInt32BE(36)) === (stat.size & 0xffffffffn) &&
    BigInt(raw.readUInt32BE(20)) === (stat.ino & 0xffffffffn) &&
    sameKind(raw.readUInt32BE(24), Number(stat.mode)) &&
    stat.mtimeNs < indexMtimeNs
  );
}

/** A link for a link; for a file, the owner's execute bit as the index has it (git compares no other permission). */
function sameKind(indexMode: number, mode: number): boolean {
  if (indexMode === 0o120000) return (mode & 0o170000) === 0o120000;
  return (mode & 0o170000) === 0o100000 && (indexMode === 0o100755) === ((mode & 0o100) !== 0);
}

async function worktreeMatches(dir: string, path: string, file: BlobRef): Promise<boolean> {
  const found = await readWorktreeFile(dir, path);
  if (found.kind === 'absent' || found.kind === 'directory') return false;
  if (found.kind === 'symlink') return file.mode === '120000' && found.oid === file.oid;
  return found.oid === file.oid && found.executable === (file.mode === '100755');
}

/** One rename per folder (its parents made first, the folders it leaves empty removed, as git has no empty folders). */
export function moveWorktreeFolders(dir: string, moves: readonly FolderMove[]): void {
  for (const move of moves) {
    mkdirSync(dirname(join(dir, move.to)), { recursive: true });
    renameSync(join(dir, move.from), join(dir, move.to));
    const parts = move.from.split('/').slice(0, -1);
    for (; parts.length > 0; parts.pop()) {
      try {
        rmdirSync(join(dir, ...parts));
      } catch {
        break;
      }
    }
  }
}

/** The moved folders' index entries renamed, their stat data kept (a rename changes no file's inode or times). */
export function moveIndexEntries(index: GitIndex, moves: readonly FolderMove[]): GitIndex {
  let entries = index.entries;
  for (const move of moves) {
    const prefix = `${move.from}/`;
    const start = findEntry(entries, prefix);
    let end = start;
    while (end < entries.length && entries[end]!.path.startsWith(prefix)) end += 1;
    const moved = entries.slice(start, end).map((e) => renameEntry(e, `${move.to}/${e.path.slice(prefix.length)}`));
    const rest = [...entries.slice(0, start), ...entries.slice(end)];
    const at = findEntry(rest, `${move.to}/`);
    entries = [...rest.slice(0, at), ...moved, ...rest.slice(at)];
  }
  return { version: index.version, entries };
}

const fixedSize = 62;

function renameEntry(entry: IndexEntry, path: string): IndexEntry {
  const flags = entry.raw.readUInt16BE(60);
  const head = fixedSize + (flags & 0x4000 ? 2 : 0);
  const bytes = Buffer.from(path, 'utf8');
  const raw = Buffer.alloc((head + bytes.length + 8) & ~7);
  entry.raw.copy(raw, 0, 0, head);
  raw.writeUInt16BE((flags & 0xf000) | Math.min(bytes.length, 0xfff), 60);
  bytes.copy(raw, head);
  return { path, raw };
}
