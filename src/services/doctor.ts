import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { readStateFiles } from './curator/read-library.js';
import { join, relative } from 'node:path';
import { readFastImportLeftovers, removeFastImportLeftover } from '../ledger/fast-import.js';
import { readHistoryCache, historyCachePath } from '../ledger/history-cache.js';
import { checkCachedIndex } from '../ledger/history-index.js';
import { describeJournal, isProcessAlive, listJournalPaths, readJournals, type JournalRecord } from '../ledger/move-journal.js';
import { openGitLedger } from '../ledger/open-ledger.js';
import { readRepoLayout, type RepoLayout } from '../ledger/git-dir.js';
import { restorePathsToHead } from '../ledger/restore-paths.js';
import { lockOwnerDir, parseLockMarker } from '../ledger/lock-file.js';
import { hostname } from 'node:os';

/** One thing a crash or a killed process left behind. `fixable`: `doctor --fix` repairs it. */
export type DoctorFinding =
  | { kind: 'interrupted-write'; path: string; pid: number; branch: string; paths: number; landed: boolean; fixable: true; message: string }
  | { kind: 'running-write'; path: string; pid: number; fixable: false; message: string }
  | { kind: 'stale-lock'; path: string; pid: number; fixable: true; message: string }
  | { kind: 'held-lock'; path: string; fixable: false; message: string }
  | { kind: 'temp-file'; path: string; fixable: true; message: string }
  | { kind: 'history-cache'; path: string; fixable: true; message: string }
  | { kind: 'fast-import-leftover'; path: string; fixable: true; message: string }
  /** A curator state file a crash or a hand edit left unreadable: the curator stops on it rather than forget stale marks. */
  | { kind: 'corrupt-state'; path: string; line: number; fixable: false; message: string };

export interface DoctorReport {
  findings: DoctorFinding[];
  /** What `--fix` did, one line each. */
  fixed: string[];
}

// The working-tree writer's temporary sibling (worktree.ts) and the index copy git updates (git-plumbing.ts).
const tempFile = /^\..+\.skillgarden-(\d+)-[0-9a-f]{8}$/;
const gitTemp = /^index\.skillgarden-(\d+)(?:\.lock)?$/;
// An atomic write's temp file (store/files.ts, cache-file.ts, history-cache.ts): `<file>.<pid>.<random>.tmp`, left when the
// process was killed or the disk filled between the write and the rename (a curator run's `REPORT.md.<pid>.<hex>.tmp`).
const atomicTemp = /^.+\.(\d+)\.(?:[0-9a-f]{8}|[0-9a-z]{9,13})\.tmp$/;

/** Reports (and with `fix`, repairs) what crashed skillgarden processes left: DESIGN §3. */
export async function runDoctor(dir: string, options: { fix: boolean; skillsDir: string | readonly string[] }): Promise<DoctorReport> {
  const layout = await readRepoLayout(dir);
  const report: DoctorReport = { findings: [], fixed: [] };
  const marked = checkLockMarkers(layout, options.fix, report);
  const journalLocks = await checkJournals(layout, options.fix, report);
  checkLocks(layout, new Set([...journalLocks, ...marked]), report);
  checkTempFiles(layout, options.skillsDir, options.fix, report);
  await checkHistoryCache(layout, options.fix, report);
  await checkFastImport(layout, options.fix, report);
  checkState(layout, report);
  return report;
}

/** The curator's state files as the curator reads them: a corrupt one is named with its line, never a stack trace. */
function checkState(layout: RepoLayout, report: DoctorReport): void {
  for (const f of readStateFiles(layout.dir).findings) {
    const path = join(layout.dir, f.file ?? '');
    report.findings.push({ kind: 'corrupt-state', path, line: f.line, fixable: false, message: `${f.message} ${f.hint}` });
  }
}

/** A batch killed mid-way: the scratch ref of its commits that never landed, and fast-import's `.keep` files. */
async function checkFastImport(layout: RepoLayout, fix: boolean, report: DoctorReport): Promise<void> {
  for (const leftover of await readFastImportLeftovers(layout, Date.now())) {
    const path = leftover.kind === 'ref' ? leftover.ref : leftover.path;
    const message =
      leftover.kind === 'ref'
        ? `commits of a batch that was killed before it published (${leftover.oid.slice(0, 12)}); no branch holds them`
        : 'the keep file of a pack git fast-import did not finish with; it keeps the pack out of git gc';
    report.findings.push({ kind: 'fast-import-leftover', path, fixable: true, message });
    if (!fix) continue;
    await removeFastImportLeftover(layout, leftover);
    report.fixed.push(`removed ${leftover.kind === 'ref' ? path : relative(layout.dir, path)}`);
  }
}

async function checkJournals(layout: RepoLayout, fix: boolean, report: DoctorReport): Promise<Set<string>> {
  const covered = new Set<string>();
  for (const journal of readJournals(layout.gitdir)) {
    if (!('record' in journal)) {
      // Killed while the journal itself was written: nothing had moved yet.
      report.findings.push({ kind: 'temp-file', path: journal.path, fixable: true, message: `unreadable journal (${journal.error})` });
      if (fix) {
        rmSync(journal.path, { force: true });
        report.fixed.push(`removed ${journal.path}`);
      }
      continue;
    }
    const { record } = journal;
    for (const lock of record.locks) covered.add(lock);
    if (isProcessAlive(record)) {
      const message = `process ${record.pid} is writing ${describeJournal(record)} on ${record.branch}; wait for it`;
      report.findings.push({ kind: 'running-write', path: journal.path, pid: record.pid, fixable: false, message });
      continue;
    }
    // Locks made through markers were judged by their markers: one still there at that path is someone else's.
    const ownLocks = record.lockMarkers ? [] : record.locks.filter((l) => existsSync(l));
    if (record.phase === 'locked') {
      // Killed before any file moved: only the locks are left.
      for (const lock of ownLocks) {
        report.findings.push({
          kind: 'stale-lock',
          path: lock,
          pid: record.pid,
          fixable: true,
          message: `left by process ${record.pid}, which is gone`,
        });
        if (fix) {
          rmSync(lock, { force: true });
          report.fixed.push(`removed the stale lock ${lock} (process ${record.pid} is gone)`);
        }
      }
      if (fix) rmSync(journal.path, { force: true });
      continue;
    }
    const ledger = await openGitLedger(layout.dir);
    try {
      const landed = (await ledger.head()) === record.commit;
      const paths = await listJournalPaths(record, (folder, commit) => ledger.listFiles(folder, commit));
      report.findings.push({
        kind: 'interrupted-write',
        path: journal.path,
        pid: record.pid,
        branch: record.branch,
        paths: paths.length,
        landed,
        fixable: true,
        message: `process ${record.pid} was killed while writing ${paths.length} file(s) of commit ${record.commit.slice(0, 12)} (${
          landed ? 'the commit landed' : 'the commit did not land'
        }); --fix puts those paths back to HEAD`,
      });
      for (const lock of ownLocks) {
        report.findings.push({
          kind: 'stale-lock',
          path: lock,
          pid: record.pid,
          fixable: true,
          message: `left by process ${record.pid}, which is gone`,
        });
      }
      if (!fix) continue;
      await repairJournal(ledger, record, paths, report);
      rmSync(journal.path, { force: true });
      report.fixed.push(`removed ${relative(layout.dir, journal.path)}`);
    } finally {
      await ledger.close();
    }
  }
  return covered;
}

async function repairJournal(
  ledger: Awaited<ReturnType<typeof openGitLedger>>,
  record: JournalRecord,
  paths: readonly string[],
  report: DoctorReport,
): Promise<void> {
  for (const lock of record.lockMarkers ? [] : record.locks.filter((l) => existsSync(l))) {
    rmSync(lock, { force: true });
    report.fixed.push(`removed the stale lock ${lock} (process ${record.pid} is gone)`);
  }
  await restorePathsToHead(ledger, paths);
  report.fixed.push(`put ${paths.length} path(s) back to HEAD (${(await ledger.head())?.slice(0, 12) ?? 'no commit'})`);
}

function lockCandidates(layout: RepoLayout): string[] {
  const candidates = [join(layout.gitdir, 'index.lock'), join(layout.gitdir, 'HEAD.lock'), join(layout.commondir, 'packed-refs.lock')];
  candidates.push(...findFiles(join(layout.commondir, 'refs'), (name) => name.endsWith('.lock')));
  return candidates;
}

/**
 * A skillgarden lock is a second name of a marker named for its process (lock-file.ts): the lock
 * of a process that is gone is found by the marker's inode, whenever the process died, and only
 * that file is removed; a lock at the same path made by anyone since is another inode.
 */
function checkLockMarkers(layout: RepoLayout, fix: boolean, report: DoctorReport): Set<string> {
  const covered = new Set<string>();
  const markers = listFiles(lockOwnerDir(layout.commondir));
  if (markers.length === 0) return covered;
  const locks = lockCandidates(layout).flatMap((path) => {
    const stat = statIfAny(path);
    return stat ? [{ path, dev: stat.dev, ino: stat.ino }] : [];
  });
  for (const marker of markers) {
    const owner = parseLockMarker(marker.slice(marker.lastIndexOf('/') + 1));
    const stat = statIfAny(marker);
    if (!owner || !stat) continue;
    const lock = locks.find((l) => l.dev === stat.dev && l.ino === stat.ino);
    if (lock) covered.add(lock.path);
    if (isProcessAlive(owner)) continue;
    if (lock) {
      report.findings.push({
        kind: 'stale-lock',
        path: lock.path,
        pid: owner.pid,
        fixable: true,
        message: `left by process ${owner.pid}, which is gone`,
      });
      if (fix) {
        rmSync(lock.path, { force: true });
        report.fixed.push(`removed the stale lock ${lock.path} (process ${owner.pid} is gone)`);
      }
    } else {
      report.findings.push({
        kind: 'temp-file',
        path: marker,
        fixable: true,
        message: `the lock marker of process ${owner.pid}, which is gone`,
      });
    }
    if (fix) rmSync(marker, { force: true });
  }
  return covered;
}

function statIfAny(path: string): { dev: number; ino: number } | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** Locks no journal accounts for: maybe a running git, maybe a crash; only a person can tell. */
function checkLocks(layout: RepoLayout, covered: ReadonlySet<string>, report: DoctorReport): void {
  for (const lock of lockCandidates(layout)) {
    if (covered.has(lock) || !existsSync(lock)) continue;
    const age = Math.round((Date.now() - statSync(lock).mtimeMs) / 1000);
    report.findings.push({
      kind: 'held-lock',
      path: lock,
      fixable: false,
      message: `held for ${age} s by a process skillgarden did not start (git?); if no git is running on ${hostname()}, remove ${lock}`,
    });
  }
}

function checkTempFiles(layout: RepoLayout, skillsDir: string | readonly string[], fix: boolean, report: DoctorReport): void {
  const dead = (pid: string | undefined) => pid !== undefined && !isProcessAlive({ pid: Number(pid), host: hostname() });
  const found = [
    ...[
      ...(typeof skillsDir === 'string' ? [skillsDir] : skillsDir).map((root) => join(layout.dir, root)),
      join(layout.dir, '.skillgarden'),
    ].flatMap((root) => findFiles(root, (name) => dead(tempFile.exec(name)?.[1] ?? atomicTemp.exec(name)?.[1]))),
    ...listFiles(layout.gitdir).filter((path) => dead(gitTemp.exec(path.slice(layout.gitdir.length + 1))?.[1])),
    ...findFiles(join(layout.gitdir, 'skillgarden'), (name) => dead(gitTemp.exec(name)?.[1] ?? atomicTemp.exec(name)?.[1])),
  ];
  for (const path of found) {
    report.findings.push({ kind: 'temp-file', path, fixable: true, message: 'a temporary file of a process that is gone' });
    if (fix) {
      rmSync(path, { force: true });
      report.fixed.push(`removed ${relative(layout.dir, path)}`);
    }
  }
}

/** A cache that says otherwise than the tree of the commit it describes: dropped, rebuilt on the next read. History is not walked. */
async function checkHistoryCache(layout: RepoLayout, fix: boolean, report: DoctorReport): Promise<void> {
  const cached = await readHistoryCache(layout.gitdir);
  const path = historyCachePath(layout.gitdir);
  if (cached === null) {
    if (existsSync(path))
      report.findings.push({ kind: 'history-cache', path, fixable: true, message: 'unreadable; it is rebuilt on the next read' });
  } else {
    const problem = await checkCachedIndex(layout.dir, cached.index);
    if (problem === null) return;
    report.findings.push({ kind: 'history-cache', path, fixable: true, message: `does not match history: ${problem}` });
  }
  if (fix && existsSync(path)) {
    rmSync(path, { force: true });
    report.fixed.push(`removed ${relative(layout.dir, path)} (rebuilt on the next read)`);
  }
}

function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir).map((name) => join(dir, name));
  } catch {
    return [];
  }
}

function findFiles(root: string, match: (name: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (match(entry.name)) found.push(join(dir, entry.name));
    }
  };
  walk(root);
  return found;
}
