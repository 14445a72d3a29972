import type { Dirent } from 'node:fs';
import { readFileSync, realpathSync } from 'node:fs';
import { join, normalize, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { SkillgardenError } from '../../core/errors.js';
import { readDirUncached, type ReadDir } from '../dir-cache.js';
import type { ScanLimits } from '../../core/scan/config.js';
import type { ScanFinding } from '../../core/scan/types.js';
import { joinEntry } from './join-path.js';
import { buildStructureFinding } from './structure-finding.js';

export interface WalkedFile {
  /** Path relative to the skill folder, with `/` separators. */
  rel: string;
  abs: string;
}

export interface WalkResult {
  files: WalkedFile[];
  /** Structural findings, `file` relative to the skill folder. */
  findings: ScanFinding[];
}

interface WalkState {
  root: string;
  realRoot: string | undefined;
  limits: ScanLimits;
  readDir: ReadDir;
  /** Undefined without a `.skillignore` (most skills): nothing to check. */
  ignore: Ignore | undefined;
  files: WalkedFile[];
  findings: ScanFinding[];
  overflow: boolean;
}

function readSkillIgnore(dir: string, entries: readonly Dirent[]): Ignore | undefined {
  if (!entries.some((e) => e.name === '.skillignore' && e.isFile())) return undefined;
  const ig = ignore();
  try {
    ig.add(readFileSync(join(dir, '.skillignore'), 'utf8'));
  } catch {
    // Unreadable .skillignore: nothing is excluded.
  }
  return ig;
}

function isInside(realRoot: string, target: string): boolean {
  const rel = relative(realRoot, target);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel));
}

function visitLink(state: WalkState, abs: string, rel: string): void {
  try {
    const target = realpathSync(abs);
    // Resolved once, and only for skills that hold a link.
    state.realRoot ??= realpathSync(state.root);
    if (!isInside(state.realRoot, target))
      state.findings.push(buildStructureFinding('structure-symlink-escape', rel, `${rel} -> ${target}`));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const id = code === 'ELOOP' ? 'structure-symlink-loop' : 'structure-symlink-broken';
    state.findings.push(buildStructureFinding(id, rel, `${rel} (${code ?? 'unresolvable'})`));
  }
}

function addFile(state: WalkState, file: WalkedFile): void {
  if (state.files.length >= state.limits.maxFiles) {
    if (!state.overflow)
      state.findings.push(
        buildStructureFinding(
          'structure-too-many-files',
          file.rel,
          `more than ${state.limits.maxFiles} files; ${file.rel} and later files not scanned`,
        ),
      );
    state.overflow = true;
    return;
  }
  state.files.push(file);
}

function listEntries(state: WalkState, abs: string, rel: string): Dirent[] | undefined {
  try {
    return [...state.readDir(abs)].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (error) {
    // An unreadable folder is reported, not fatal: the rest of the skill is still scanned.
    state.findings.push(
      buildStructureFinding('structure-unreadable', rel || '.', `${rel || '.'}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`),
    );
    return undefined;
  }
}

function visitDir(state: WalkState, abs: string, rel: string, depth: number, listed?: Dirent[]): void {
  if (depth > state.limits.maxDepth) {
    state.findings.push(
      buildStructureFinding('structure-too-deep', rel, `${rel} is ${depth} folders deep (limit ${state.limits.maxDepth})`),
    );
    return;
  }
  const entries = listed ?? listEntries(state, abs, rel);
  if (!entries) return;
  // A folder with its own SKILL.md is a nested skill, scanned on its own.
  if (depth > 0 && entries.some((e) => e.name === 'SKILL.md')) return;
  for (const entry of entries) {
    const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
    const childAbs = joinEntry(abs, entry.name);
    if (entry.name === '.git') continue;
    if (childRel !== 'SKILL.md' && state.ignore?.ignores(entry.isDirectory() ? `${childRel}/` : childRel)) continue;
    if (entry.isSymbolicLink()) visitLink(state, childAbs, childRel);
    else if (entry.isDirectory()) visitDir(state, childAbs, childRel, depth + 1);
    // Size and mode come from the open file when it is read: one system call fewer per file.
    else if (entry.isFile()) addFile(state, { rel: childRel, abs: childAbs });
    else state.findings.push(buildStructureFinding('structure-special-file', childRel, childRel));
  }
}

/**
 * Lists a skill folder's files for scanning: honours `.skillignore` (never for
 * the root SKILL.md), never follows symbolic links (a link leaving the folder
 * is a finding, a loop is reported rather than walked), skips nested skills,
 * and stops at the file-count and depth limits with a finding. `readDir`
 * lets a pass share folder listings with discovery (and with `validate`).
 */
export function walkSkill(dir: string, limits: ScanLimits, readDir: ReadDir = readDirUncached): WalkResult {
  let entries: Dirent[];
  try {
    // Synchronous on purpose: a skill is a handful of small files, and the async calls cost ~5x the CPU.
    entries = [...readDir(dir)];
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') {
      throw new SkillgardenError(
        'scan/not-a-skill',
        `Cannot scan ${dir}: it is a file, not a skill folder. Pass the folder that holds SKILL.md.`,
        { data: { path: dir }, cause },
      );
    }
    throw new SkillgardenError(
      'scan/not-found',
      `Cannot scan ${dir}: no such folder (${code ?? 'unreadable'}). Pass a skill folder (the one holding SKILL.md).`,
      { data: { path: dir }, cause },
    );
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const state: WalkState = {
    root: dir,
    realRoot: undefined,
    limits,
    readDir,
    ignore: readSkillIgnore(dir, entries),
    files: [],
    findings: [],
    overflow: false,
  };
  // Normalised once (as path.join did per entry): the walk's paths are then joined by concatenation.
  visitDir(state, normalize(dir), '', 0, entries);
  return { files: state.files, findings: state.findings };
}
