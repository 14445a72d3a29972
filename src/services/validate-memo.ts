import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Finding } from '../core/findings.js';
import { configFile } from '../core/config/config-path.js';
import { findGitDir } from '../ledger/git-dir.js';
import { cacheFilePath, writeCacheText } from '../store/cache-file.js';
import { folderStampProbe } from '../store/folder-stamp-probe.js';
import { isFolderStamps, stampsHold, type FolderStamps } from '../store/folder-stamp.js';
import type { ValidateReport } from './validate.js';

/**
 * A whole `validate` run kept for its repeat: the report, and the stat of
 * every folder the pass listed and of every file in them. A run whose inputs
 * (arguments, config, code) are the same and whose stamps all hold prints the
 * kept report without running the pass: git's index, for a whole report. Any
 * change (one file, one folder's entries) and the pass runs as without it,
 * with its per-file caches (validate-cache.ts, scan-cache-file.ts).
 */
export const validateMemoFileName = 'validate-memo.json';

/** Bump when what a memo holds or what its key covers changes. */
const memoVersion = 1;

/** What a run's report depends on beside the files: the caller names each (arguments, code). */
export interface MemoKeyInput {
  repo: string;
  /** The command's own module: a rebuilt or edited CLI never serves an older one's report. */
  moduleUrl: string;
  /** Everything else the report depends on (arguments, versions), as plain data. */
  args: unknown;
}

/**
 * A kept run, as written: one line of JSON (this header), then the report
 * exactly as `--json` prints it, so a repeat with `--json` writes it out
 * without parsing it (it is most of the file).
 */
export interface MemoHeader {
  version: number;
  key: string;
  folders: FolderStamps;
  /** Paths whose existence the pass looked at outside its listings (links to sibling skills), and what it found. */
  probes: [string, boolean][];
  /** Per finding, the skill a scan finding is about (the text output groups them), else null. */
  groups: (string | null)[];
  /** The report's error count: the exit code, without parsing the report. */
  errors: number;
}

/** A kept run that holds. */
export interface KeptRun {
  /** The report as `--json` prints it (its text and the final newline, UTF-8). */
  printed: Buffer;
  errors: number;
  /** The report itself (parsed now); undefined when the text is not one (then the run is not kept). */
  report(): { report: ValidateReport; groups: (string | null)[] } | undefined;
}

export interface OpenedMemo {
  /** The kept run when its key and every stamp hold, else undefined. */
  hit(): KeptRun | undefined;
  /** Keeps this run's report for its repeat. */
  save(folders: FolderStamps, probes: [string, boolean][], report: ValidateReport, groups: (string | null)[]): void;
  /** Whether the config file still holds the text the key was made with (a pass that read another is not kept). */
  configHolds(): boolean;
}

/** The report as `--json` prints it: the kept text is this, byte for byte. */
export const printReport = (report: ValidateReport): string => `${JSON.stringify(report, null, 2)}\n`;

/**
 * The memo of the repository at `repo` (undefined outside a git repository).
 * Its key holds the config file's text, so a run with a config never parses
 * it to know its report is the kept one.
 */
export function openValidateMemo(input: MemoKeyInput): OpenedMemo | undefined {
  const gitdir = findGitDir(input.repo);
  if (gitdir === undefined) return undefined;
  const configText = readConfigText(input.repo);
  const key = JSON.stringify([
    memoVersion,
    moduleStamp(input.moduleUrl),
    process.version,
    input.repo,
    gitdir,
    process.env.GIT_WORK_TREE ?? null,
    configText,
    input.args,
  ]);
  const file = cacheFilePath(gitdir, validateMemoFileName);
  // The stamps say "unchanged" only where a folder's stat moves with its entries and a file's with its bytes.
  const probe = folderStampProbe(input.repo, gitdir);
  return {
    configHolds: () => readConfigText(input.repo) === configText,
    save(folders, probes, report, groups) {
      if (!probe.settle()) return;
      const header: MemoHeader = { version: memoVersion, key, folders, probes, groups, errors: report.errors };
      writeCacheText(file, `${JSON.stringify(header)}\n${printReport(report)}`);
    },
    hit() {
      if (probe.verdict() !== true) return undefined;
      const kept = readMemo(file);
      if (kept === undefined || kept.header.key !== key) return undefined;
      if (!kept.header.probes.every(([path, existed]) => existsSync(path) === existed)) return undefined;
      if (!stampsHold(kept.header.folders)) return undefined;
      const { printed, header } = kept;
      return { printed, errors: header.errors, report: () => parseReport(printed, header.groups) };
    },
  };
}

/** The module's name (a bundle chunk's holds the hash of its code and of every chunk it loads), size and mtime. */
function moduleStamp(url: string): string {
  const path = url.startsWith('file:') ? fileURLToPath(url) : url;
  try {
    const stat = statSync(path);
    return `${basename(path)}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return `${basename(path)}:unknown`;
  }
}

function readConfigText(repo: string): string | null {
  try {
    return readFileSync(join(repo, configFile), 'utf8');
  } catch {
    return null;
  }
}

function readMemo(file: string): { header: MemoHeader; printed: Buffer } | undefined {
  let bytes: Buffer;
  let header: Partial<MemoHeader> | null;
  let end: number;
  try {
    bytes = readFileSync(file);
    end = bytes.indexOf(10);
    header = JSON.parse(bytes.toString('utf8', 0, end)) as Partial<MemoHeader> | null;
  } catch {
    return undefined;
  }
  if (typeof header !== 'object' || header === null || header.version !== memoVersion || typeof header.key !== 'string') return undefined;
  if (!isFolderStamps(header.folders) || !Array.isArray(header.probes) || !header.probes.every(isProbe)) return undefined;
  if (typeof header.errors !== 'number' || !Array.isArray(header.groups)) return undefined;
  // The report's bytes as they are: a repeat with --json writes them out without decoding them.
  return { header: header as MemoHeader, printed: bytes.subarray(end + 1) };
}

function parseReport(printed: Buffer, groups: unknown[]): { report: ValidateReport; groups: (string | null)[] } | undefined {
  let report: Partial<ValidateReport> | null;
  try {
    report = JSON.parse(printed.toString('utf8')) as Partial<ValidateReport> | null;
  } catch {
    return undefined;
  }
  if (typeof report !== 'object' || report === null || !Array.isArray(report.findings) || !report.findings.every(isFinding))
    return undefined;
  if (groups.length !== report.findings.length || !groups.every((g) => g === null || typeof g === 'string')) return undefined;
  return { report: report as ValidateReport, groups };
}

const isProbe = (p: unknown): boolean => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'boolean';

const isFinding = (f: unknown): f is Finding =>
  typeof f === 'object' && f !== null && typeof (f as Finding).code === 'string' && typeof (f as Finding).file === 'string';
