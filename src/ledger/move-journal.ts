import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { inFolder } from './fs-sync.js';

/**
 * An intent log for the working-tree step of a commit. Git's own checkout is not atomic either
 * (a file at a time); what makes a crash recoverable is knowing which paths were in flight. The
 * journal is written before the first file moves, and removed once the ref has
 * moved, while the locks are still held. A journal whose process is gone names the paths to put
 * back to HEAD and the locks that process left: `skillgarden doctor --fix` does both.
 */
export interface JournalRecord {
  version: 1;
  pid: number;
  host: string;
  startedAt: string;
  branch: string;
  /** The commit the branch pointed at, and the one being published. */
  parent: string | null;
  commit: string;
  /** The files written or removed one by one. */
  paths: string[];
  /**
   * Folders moved whole: each stands for its files at both ends (`listJournalPaths`), so a 100,000-file archive
   * journals two names, not 200,000 paths.
   */
  moves?: Array<{ from: string; to: string }>;
  /** Lock files held while the working tree changes. */
  locks: string[];
  /** The locks were made through ownership markers (lock-file.ts): doctor tells ours by them, not by this list. */
  lockMarkers?: boolean;
  /** `locked`: the locks are taken, no file has moved yet; `writing`: files may be half moved. */
  phase: 'locked' | 'writing';
}

export interface JournalFile {
  path: string;
  record: JournalRecord;
}

export interface OpenJournal {
  /** Called before the first file of the working tree changes. */
  writing(): void;
  /** Called once the ref has moved (or the commit was given up), before the locks are released. */
  finish(): void;
}

export function journalDir(gitdir: string): string {
  return join(gitdir, 'skillgarden', 'journal');
}

/** Written right after the locks are taken, so that no lock of ours is ever left without a journal naming it. */
export function beginJournal(gitdir: string, record: Omit<JournalRecord, 'version' | 'pid' | 'host' | 'startedAt' | 'phase'>): OpenJournal {
  const path = join(journalDir(gitdir), `${process.pid}-${randomBytes(4).toString('hex')}.json`);
  const full: JournalRecord = {
    version: 1,
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    ...record,
    phase: 'locked',
  };
  writeRecord(path, full, 'wx');
  return {
    // Only now may doctor put the paths back: before, a person's uncommitted edit could still be there.
    writing: () => writeRecord(path, { ...full, phase: 'writing' }, 'r+'),
    finish: () => rmSync(path, { force: true }),
  };
}

function writeRecord(path: string, record: JournalRecord, flags: 'wx' | 'r+'): void {
  const fd = inFolder(path, () => openSync(path, flags));
  try {
    // Not fsynced: a SIGKILL keeps the page cache, and after a power cut the working tree is not
    // durable either (git does not fsync checkouts); the commit is, and `git restore` rebuilds.
    // Same length in both phases ('locked' and 'writing' differ in length: padded), so r+ leaves no tail.
    writeSync(fd, JSON.stringify(record).padEnd(jsonLength(record), ' '), 0);
  } finally {
    closeSync(fd);
  }
}

function jsonLength(record: JournalRecord): number {
  return JSON.stringify({ ...record, phase: 'writing' }).length;
}

/** Every journal left in the git folder; an unreadable one is returned with the paths it could not name. */
export function readJournals(gitdir: string): Array<JournalFile | { path: string; error: string }> {
  let names: string[];
  try {
    names = readdirSync(journalDir(gitdir)).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names.sort().map((name) => {
    const path = join(journalDir(gitdir), name);
    try {
      const record = JSON.parse(readFileSync(path, 'utf8')) as JournalRecord;
      if (record.version !== 1 || !Array.isArray(record.paths)) return { path, error: 'not a journal this version writes' };
      return { path, record };
    } catch (error) {
      // Killed while writing it: nothing had moved yet.
      return { path, error: (error as Error).message };
    }
  });
}

/** True when `pid` runs on this machine; a journal from another host is never judged dead. */
export function isProcessAlive(record: Pick<JournalRecord, 'pid' | 'host'>): boolean {
  if (record.host !== hostname()) return true;
  try {
    process.kill(record.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What `doctor --fix` puts back: the journal's files, and each moved folder's files at both ends, listed from the commit. */
export async function listJournalPaths(
  record: Pick<JournalRecord, 'paths' | 'moves' | 'commit'>,
  listFiles: (folder: string, commit: string) => Promise<Array<{ path: string }>>,
): Promise<string[]> {
  const paths = [...record.paths];
  for (const move of record.moves ?? []) {
    for (const file of await listFiles(move.to, record.commit)) {
      const inside = file.path.slice(move.to.length);
      paths.push(`${move.from}${inside}`, file.path);
    }
  }
  return paths;
}

/** The journal's work in words: "3 file(s)", "1 file(s) and 1 moved folder(s)". */
export function describeJournal(record: Pick<JournalRecord, 'paths' | 'moves'>): string {
  const moves = record.moves?.length ?? 0;
  return `${record.paths.length} file(s)${moves > 0 ? ` and ${moves} moved folder(s)` : ''}`;
}

/** The branch move a publish makes, as its journal records it. */
export function journalOf(input: {
  branch: string;
  parent: string | undefined;
  commit: string;
}): Pick<JournalRecord, 'branch' | 'parent' | 'commit'> {
  return { branch: input.branch, parent: input.parent ?? null, commit: input.commit };
}
