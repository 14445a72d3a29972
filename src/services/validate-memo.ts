import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Finding } from '../core/findings.js';
import { configFile } from '../core/config/config-path.js';
import { findGitDir } from '../ledger/git-dir.js';
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

/** A kept run, as written. */
export interface ValidateMemo {
  version: number;
  key: string;
  folders: FolderStamps;
  /** Paths whose existence the pass looked at outside its listings (links to sibling skills), and what it found. */
  probes: [string, boolean][];
  report: ValidateReport;
  /** Per finding, the skill a scan finding is about (the text output groups them), else null. */
  groups: (string | null)[];
}

export interface OpenedMemo {
  /** The kept report when its key and every stamp hold, else undefined. */
  hit(): { report: ValidateReport; groups: (string | null)[] } | undefined;
  /** Where it is written (inside the git folder). */
  file: string;
  key: string;
  /** Whether the config file still holds the text the key was made with (a pass that read another is not kept). */
  configHolds(): boolean;
}

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
  const file = `${gitdir}/skillgarden/${validateMemoFileName}`;
  return {
    file,
    key,
    configHolds: () => readConfigText(input.repo) === configText,
    hit() {
      const memo = readMemo(file);
      if (memo === undefined || memo.key !== key) return undefined;
      if (!memo.probes.every(([path, existed]) => existsSync(path) === existed)) return undefined;
      return stampsHold(memo.folders) ? { report: memo.report, groups: memo.groups } : undefined;
    },
  };
}

/** The module's name (a bundle chunk's holds the hash of its code and of every chunk it loads), size and mtime. */
function moduleStamp(url: string): string {
  const path = url.startsWith('file:') ? decodeURIComponent(new URL(url).pathname) : url;
  try {
    const stat = statSync(path);
    return `${basename(path)}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return `${basename(path)}:unknown`;
  }
}

function readConfigText(repo: string): string | null {
  try {
    return readFileSync(`${repo}/${configFile}`, 'utf8');
  } catch {
    return null;
  }
}

function readMemo(file: string): ValidateMemo | undefined {
  let data: Partial<ValidateMemo> | null;
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as Partial<ValidateMemo> | null;
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null || data.version !== memoVersion || typeof data.key !== 'string') return undefined;
  if (!isFolderStamps(data.folders) || !Array.isArray(data.probes) || !data.probes.every(isProbe)) return undefined;
  const report = data.report as Partial<ValidateReport> | undefined;
  if (typeof report !== 'object' || report === null || !Array.isArray(report.findings) || !report.findings.every(isFinding))
    return undefined;
  const groups = data.groups;
  if (!Array.isArray(groups) || groups.length !== report.findings.length || !groups.every((g) => g === null || typeof g === 'string'))
    return undefined;
  return data as ValidateMemo;
}

const isProbe = (p: unknown): boolean => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'boolean';

const isFinding = (f: unknown): f is Finding =>
  typeof f === 'object' && f !== null && typeof (f as Finding).code === 'string' && typeof (f as Finding).file === 'string';

/** What a run writes for its repeat. */
export function memoOf(
  key: string,
  folders: FolderStamps,
  probes: [string, boolean][],
  report: ValidateReport,
  groups: (string | null)[],
): ValidateMemo {
  return { version: memoVersion, key, folders, probes, report, groups };
}
