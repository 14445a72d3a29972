import { realpathSync, type Dirent, type Stats } from 'node:fs';
import { readOpened, type FileCache } from './file-cache.js';
import { isSymlink, lstatIfAny } from './fs-probe.js';
import { join, relative, sep } from 'node:path';
import { finding, type Finding } from '../core/findings.js';
import { skillFileName } from '../core/layout.js';
import type { SkillFileEntry } from '../core/rules/index.js';
import { readDirUncached, type ReadDir } from './dir-cache.js';

export interface SkillFolderContent {
  /** SKILL.md bytes; undefined when it could not be read safely (then `findings` says why). */
  bytes: Uint8Array | undefined;
  files: Map<string, SkillFileEntry>;
  findings: Finding[];
}

export interface ReadSkillFolderOptions {
  /** Path of SKILL.md as reported in findings. */
  reportPath: string;
  /** A symlinked SKILL.md or skill folder must resolve inside this folder. */
  boundary: string;
  maxFiles?: number;
  maxDepth?: number;
  readDir?: ReadDir;
  /**
   * Keeps the bytes read for the pass's next reader (the security scan): SKILL.md's, and, with
   * `readAheadBytes`, each support file's, whose size then comes from its open handle instead of an `lstat`.
   */
  files?: FileCache;
  /** With `files`: read each regular support file of at most this many bytes while listing it (the scan reads them next). */
  readAheadBytes?: number;
  /** The repository: a support file that is a link resolving outside it is an error. */
  repository?: string;
  /**
   * Whether the folder or SKILL.md is a symbolic link, when the caller's
   * discovery already knows (its listings said so): saves a probe per skill.
   */
  linked?: boolean;
}

/** Reads a skill folder: SKILL.md's bytes and the list of its files with sizes. Bounded; never follows links out. */
export function readSkillFolder(dir: string, options: ReadSkillFolderOptions): SkillFolderContent {
  const findings: Finding[] = [];
  const file = join(dir, skillFileName);
  // realpath costs a syscall per path component: only resolve what is a link. The folder's
  // listing (which the file walk below needs anyway) says whether SKILL.md is one.
  const linked = options.linked ?? (isSymlink(dir) || skillFileIsLink(dir, file, options.readDir));
  const escape = linked ? escapesBoundary(file, options.boundary) : undefined;
  if (escape) {
    findings.push(
      finding({
        code: 'skill/symlink-escapes',
        severity: 'error',
        file: options.reportPath,
        line: 0,
        column: 0,
        message: `SKILL.md resolves to ${escape}, outside ${options.boundary}`,
        hint: 'Replace the symlink with the file itself: a skill must live inside the library.',
      }),
    );
    return { bytes: undefined, files: new Map(), findings };
  }
  const links: string[] = [];
  const limits = { maxFiles: options.maxFiles ?? 2_000, maxDepth: options.maxDepth ?? 8 };
  const readAhead = readAheadOf(options);
  const files = listSkillFiles(dir, limits, options.readDir ?? readDirUncached, links, readAhead);
  // SKILL.md is listed without an lstat: the read below reports its size (an lstat only if the read fails).
  const skillEntry = files.get(skillFileName);
  let bytes: Uint8Array | undefined;
  try {
    const read = options.files ? options.files.read(file) : readOpened(file);
    bytes = read.bytes;
    if (skillEntry?.size === unknownSize) skillEntry.size = read.size;
  } catch (error) {
    findings.push(
      finding({
        code: 'skill/unreadable',
        severity: 'error',
        file: options.reportPath,
        message: `cannot read SKILL.md: ${(error as Error).message}`,
        hint: 'Check the file exists and is readable.',
      }),
    );
  }
  if (skillEntry?.size === unknownSize) {
    const stat = lstatIfAny(file);
    if (stat) skillEntry.size = stat.size;
    else files.delete(skillFileName);
  }
  findings.push(...linkFindings(dir, links, options));
  return { bytes, files, findings };
}

/** Support files that are links resolving outside the repository. */
function linkFindings(dir: string, links: readonly string[], options: ReadSkillFolderOptions): Finding[] {
  const findings: Finding[] = [];
  if (options.repository) {
    const folder = options.reportPath.slice(0, -skillFileName.length);
    for (const rel of links) {
      const target = escapesBoundary(join(dir, rel), options.repository);
      if (!target) continue;
      findings.push(
        finding({
          code: 'skill/symlink-escapes',
          severity: 'error',
          file: `${folder}${rel}`,
          message: `${folder}${rel} is a symbolic link that resolves to ${target}, outside the repository`,
          hint: 'Replace the link with the file itself: nothing a skill serves may come from outside the repository.',
        }),
      );
    }
  }
  return findings;
}

function skillFileIsLink(dir: string, file: string, readDir: ReadDir | undefined): boolean {
  if (!readDir) return isSymlink(file);
  try {
    const entry = readDir(dir).find((e) => e.name === skillFileName);
    return entry ? entry.isSymbolicLink() : isSymlink(file);
  } catch {
    return isSymlink(file);
  }
}

/** The real path of `path` when it lies outside `boundary`, else undefined. */
function escapesBoundary(path: string, boundary: string): string | undefined {
  let real: string;
  let realBoundary: string;
  try {
    real = realpathSync(path);
    realBoundary = realpathSync(boundary);
  } catch {
    return undefined;
  }
  const rel = relative(realBoundary, real);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..') ? undefined : real;
}

/**
 * The most bytes of support files one skill's listing keeps for the scan: past it, a file is
 * only opened for its size and the scan reads it itself, so a skill of many large files
 * (which the scan's own limits may leave out) is never held in memory whole.
 */
export const readAheadBudget = 8 * 1024 * 1024;

/** A file's size from its open handle, its bytes kept in `files` while the skill's budget lasts. */
function readAheadOf(options: ReadSkillFolderOptions): ((path: string) => Stats | undefined) | undefined {
  const { files, readAheadBytes } = options;
  if (!files?.readAhead || readAheadBytes === undefined) return undefined;
  let left = readAheadBudget;
  return (path) => {
    const max = Math.min(readAheadBytes, left);
    const stat = files.readAhead!(path, max);
    if (stat && stat.size <= max) left -= stat.size;
    return stat;
  };
}

/** A listed SKILL.md's size until its read reports it. */
const unknownSize = -1;

/**
 * Every file below the skill folder with its size: a link's from `lstat`
 * (the link itself), a regular file's from `readAhead` when given (its open
 * handle, the bytes kept for the scan), else from `lstat`. A regular SKILL.md
 * at the top is listed with `unknownSize`: its reader fills it in.
 */
function listSkillFiles(
  dir: string,
  limits: { maxFiles: number; maxDepth: number },
  readDir: ReadDir,
  links: string[],
  readAhead: ((path: string) => Stats | undefined) | undefined,
): Map<string, SkillFileEntry> {
  const files = new Map<string, SkillFileEntry>();
  const walk = (folder: string, prefix: string, depth: number): void => {
    if (depth > limits.maxDepth) return;
    let entries: Dirent[];
    try {
      entries = readDir(folder);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (files.size >= limits.maxFiles) return;
      // A listed name holds no separator: concatenation is path.join without its normalising.
      const path = `${folder}${sep}${entry.name}`;
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        walk(path, rel, depth + 1);
        continue;
      }
      const link = entry.isSymbolicLink();
      if (link) links.push(rel);
      else if (rel === skillFileName && entry.isFile()) {
        files.set(rel, { path: rel, size: unknownSize });
        continue;
      }
      const stat = (!link && entry.isFile() && readAhead?.(path)) || lstatIfAny(path);
      if (!stat) continue;
      files.set(rel, { path: rel, size: stat.size });
    }
  };
  walk(dir.length > 1 && dir.endsWith(sep) ? dir.slice(0, -1) : dir, '', 0);
  return files;
}
