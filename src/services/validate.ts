import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, posix, relative, resolve, sep } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import { compareFindings, type Finding } from '../core/findings.js';
import { skillFileName } from '../core/layout.js';
import type { ProfileName } from '../core/schema/types.js';
import type { SkillFileEntry } from '../core/rules/index.js';
import type { LinkScope } from '../core/config/config.js';
import { validateSkill } from '../core/validate.js';
import { createDirCache, type ReadDir } from '../store/dir-cache.js';
import type { FileCache } from '../store/file-cache.js';
import { discoverSkills, type SkillLocation } from '../store/discover.js';
import { discoverNested, nestedFinding, openLibrary, type DiscoveredLibrary } from '../store/layout/discover-library.js';
import { readSkillFolder } from '../store/read-skill.js';
import { evalsFile } from '../core/evals/validate-evals.js';
import { checkEvalsFile } from './validate-evals.js';

export interface ValidateOptions {
  /** Folder that relative paths are resolved against and findings are reported relative to. */
  cwd: string;
  /** Skill folders, SKILL.md files or library roots; default: every skill of the library. */
  paths?: readonly string[];
  /** The `skills_dir` setting (undefined: detected), for a run with no paths. */
  skillsDir?: string | readonly string[];
  /** The library, already discovered (the command checks it is not empty). */
  library?: DiscoveredLibrary;
  profile?: ProfileName;
  /** How far relative links may reach (the `links` setting): the skill's folder, or the library. */
  links?: LinkScope;
  onProgress?: (done: number, total: number) => void;
}

/** What the pass shares between validate and the scan that follows it. */
export interface ValidatePassOptions extends ValidateOptions {
  /** Folder listings shared with the rest of the pass (the security scan reads the same folders). */
  readDir: ReadDir;
  /** Keeps each SKILL.md read for the rest of the pass (the security scan reads them again). */
  files?: FileCache;
  /** With `files`: each support file of at most this many bytes is read as it is listed, for the scan that follows. */
  readAheadBytes?: number;
}

export interface ValidateReport {
  profile: ProfileName;
  skills: number;
  errors: number;
  warnings: number;
  findings: Finding[];
}

/** A skill folder to validate. */
export interface ValidateTarget {
  dir: string;
  name: string;
  boundary: string;
  /** The folder sibling links are read against (the skill root), when known. */
  libraryRoot?: string;
  /** Whether the folder or its SKILL.md is a symbolic link, when discovery's listings said (else it is probed). */
  linked?: boolean;
}

type Target = ValidateTarget;

/** The skills the options name (paths, or the whole library), and the library's own findings. A missing path throws. */
export function resolveValidateTargets(
  options: Pick<ValidateOptions, 'cwd' | 'paths' | 'skillsDir' | 'library'>,
  readDir: ReadDir,
): { targets: ValidateTarget[]; findings: Finding[]; explicit: boolean; library?: DiscoveredLibrary } {
  if (options.paths !== undefined && options.paths.length > 0) {
    const targets = dedupe(options.paths.flatMap((path) => resolveTargets(resolve(options.cwd, path), path, true, readDir)));
    return { targets, findings: [], explicit: true };
  }
  const library = options.library ?? openLibrary(options.cwd, options.skillsDir, { readDir });
  // A skill the manifest lists was not found in a listing: whether it is a link is not known.
  const listed = new Set(library.layout.listed.map((l) => l.path));
  // A library has a root or a few: each joined once, not once per skill (path.join normalises on every call).
  const roots = new Map<string, string>();
  const rootOf = (root: string) => roots.get(root) ?? roots.set(root, join(options.cwd, root)).get(root)!;
  const nested = discoverNested(library, readDir);
  const targets = [...library.skills, ...nested].map((s) => ({
    dir: s.dir,
    name: s.name,
    boundary: options.cwd,
    libraryRoot: rootOf(s.root),
    ...(listed.has(s.path) ? {} : { linked: s.linked === true }),
  }));
  const parents = nested.map((n) => nestedFinding(n, library.skills.find((s) => n.path.startsWith(`${s.path}/`))?.path ?? n.root));
  return { targets, findings: [...library.findings, ...parents], explicit: false, library };
}

/** Validates every skill the paths name, in a stable order. Content problems are findings; a missing path throws. */
export function runValidate(options: ValidateOptions): ValidateReport {
  const readDir = createDirCache();
  const { targets, findings, explicit } = resolveValidateTargets(options, readDir);
  findings.push(...validateTargets(targets, explicit, { ...options, readDir }));
  return validateReport(options.profile ?? 'portable', targets.length, findings);
}

/** The report over findings gathered in target order: sorted (stably: ties keep that order), counted. */
export function validateReport(profile: ProfileName, skills: number, findings: Finding[]): ValidateReport {
  findings.sort(compareFindings);
  return {
    profile,
    skills,
    errors: findings.filter((f) => f.severity === 'error').length,
    warnings: findings.filter((f) => f.severity === 'warning').length,
    findings,
  };
}

/** The findings of each target, in target order (unsorted). `explicit`: the targets came from paths, not the library. */
export function validateTargets(targets: readonly ValidateTarget[], explicit: boolean, options: ValidatePassOptions): Finding[] {
  const profile = options.profile ?? 'portable';
  const findings: Finding[] = [];
  targets.forEach((target, index) => {
    findings.push(...validateTarget(target, explicit, options.readDir, profile, options));
    options.onProgress?.(index + 1, targets.length);
  });
  return findings;
}

/** One skill's findings: its folder read, its SKILL.md checked, its evals file. */
function validateTarget(
  target: Target,
  explicit: boolean,
  readDir: ReadDir,
  profile: ProfileName,
  options: ValidatePassOptions,
): Finding[] {
  const folder = relativePosix(options.cwd, target.dir);
  const reportPath = folder ? `${folder}/${skillFileName}` : skillFileName;
  const content = readSkillFolder(target.dir, {
    reportPath,
    boundary: target.boundary,
    readDir,
    ...(target.linked === undefined ? {} : { linked: target.linked }),
    ...(explicit ? {} : { repository: options.cwd }),
    ...(options.files ? { files: options.files } : {}),
    ...(options.readAheadBytes === undefined ? {} : { readAheadBytes: options.readAheadBytes }),
  });
  const findings = [...content.findings];
  if (content.bytes)
    findings.push(
      ...checkSkill(target, options.cwd, { reportPath, bytes: content.bytes, files: content.files, profile, links: options.links }),
    );
  const evalsPath = folder ? `${folder}/${evalsFile}` : evalsFile;
  findings.push(...checkEvalsFile(target.dir, target.name, content.files, evalsPath));
  return findings;
}

/**
 * Checks one SKILL.md. Its `../` links are read from its place in the
 * repository (else below the folder named on the command line): another
 * skill, or a file of the repository, is looked up there.
 */
function checkSkill(
  target: Target,
  repository: string,
  skill: { reportPath: string; bytes: Uint8Array; files: ReadonlyMap<string, SkillFileEntry>; profile: ProfileName; links?: LinkScope },
): Finding[] {
  const base = target.dir === repository || target.dir.startsWith(`${repository}${sep}`) ? repository : target.libraryRoot;
  const library = base
    ? {
        scope: skill.links ?? 'library',
        skillDir: relativePosix(base, target.dir),
        exists: (path: string) => existsSync(join(base, path)),
        inSkill: (path: string) => holdsSkill(base, path),
      }
    : undefined;
  const { reportPath: file, bytes: content, files, profile } = skill;
  return validateSkill({ file, content, folder: target.name, profile, files, ...(library ? { library } : {}) }).findings;
}

/** Whether the path, or a folder above it below `base`, holds a SKILL.md. */
function holdsSkill(base: string, path: string): boolean {
  for (let at = path; at !== '' && at !== '.'; at = posix.dirname(at)) {
    if (existsSync(join(base, at, skillFileName))) return true;
    if (!at.includes('/')) break;
  }
  return false;
}

/** An explicit folder is searched to any depth; the library root keeps the library layout (one category level). */
function resolveTargets(absolute: string, asGiven: string, deep: boolean, readDir: ReadDir): Target[] {
  if (!existsSync(absolute)) {
    throw new SkillgardenError('validate/not-found', `${asGiven}: no such file or folder`, {
      data: { path: asGiven },
    });
  }
  if (statSync(absolute).isFile()) {
    if (basename(absolute) !== skillFileName) {
      throw new SkillgardenError('validate/not-a-skill', `${asGiven}: not a SKILL.md; name a skill folder, a SKILL.md or a skills root`, {
        data: { path: asGiven },
      });
    }
    const dir = dirname(absolute);
    return [{ dir, name: basename(dir), boundary: dirname(dir) }];
  }
  if (existsSync(join(absolute, skillFileName))) return [{ dir: absolute, name: basename(absolute), boundary: dirname(absolute) }];
  return discoverSkills(absolute, { readDir, ...(deep ? { deep: { maxDepth: explicitDepth } } : {}) }).map((skill) =>
    explicitTarget(absolute, skill),
  );
}

/** How deep a folder named on the command line is searched for skills. */
export const explicitDepth = 8;

/** A skill found under a folder named on the command line, as a target. */
export function explicitTarget(root: string, skill: SkillLocation): ValidateTarget {
  return { dir: skill.dir, name: skill.name, boundary: root, libraryRoot: root, linked: skill.linked === true };
}

function dedupe(targets: Target[]): Target[] {
  const seen = new Set<string>();
  return targets.filter((t) => !seen.has(t.dir) && seen.add(t.dir));
}

/** `path` relative to `from`, with `/`: a prefix cut when it lies below (path.relative normalises both paths on every call). */
function relativePosix(from: string, path: string): string {
  if (path === from) return '';
  const prefix = from.endsWith(sep) ? from : `${from}${sep}`;
  return toPosix(path.startsWith(prefix) ? path.slice(prefix.length) : relative(from, path));
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
