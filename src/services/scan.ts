import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import { resolveScanConfig, type ScanConfig, type ScanConfigInput } from '../core/scan/config.js';
import { buildScanReport, type ScanReport, type ScanResult } from '../core/scan/report.js';
import type { ScanProvenance } from '../core/scan/types.js';
import { createDirCache, type ReadDir } from '../store/dir-cache.js';
import type { FileCache } from '../store/file-cache.js';
import { discoverSkills } from '../store/discover.js';
import { openLibrary, type DiscoveredLibrary, type EscapedSkill } from '../store/layout/discover-library.js';
import { buildStructureFinding } from '../store/scan/structure-finding.js';
import { buildVerdict } from '../core/scan/verdict.js';
import { labelUnder } from '../store/scan/join-path.js';
import { scanSkillDir, type ContentCache } from '../store/scan/scan-skill-dir.js';
import { openScanCache } from '../store/scan/scan-cache-file.js';

export interface RunScanOptions {
  /** Repository root: relative paths resolve against it and reported paths are relative to it. Default: the current directory. */
  repo?: string;
  /** The `skills_dir` setting, for a scan with no path (undefined: the layout is detected). */
  skillsDir?: string | readonly string[];
  /** The library, already discovered: scanned when no path is given. */
  library?: DiscoveredLibrary;
  /** The `scan:` config as written, or already resolved. */
  config?: ScanConfigInput | ScanConfig;
  /** Provenance of a skill, when known (adds policy decisions to the report). */
  provenanceOf?: (skill: { name: string; dir: string }) => ScanProvenance | undefined;
  /** Find SKILL.md at any depth under a folder that is not itself a skill (collections laid out other ways). */
  deep?: boolean;
  /**
   * Lists folders. Default: a fresh cache for this pass. `validate` can pass
   * the cache its own pass filled, so the scan lists no folder again.
   */
  readDir?: ReadDir;
  /** Files an earlier reader of the pass kept (validate's SKILL.md reads): taken instead of read again. */
  files?: FileCache;
  /** Skills scanned at once. Default 8. */
  concurrency?: number;
  /**
   * Keep content findings in `.git/skillgarden/scan-cache.json`, by blob id,
   * so an unchanged file is not scanned again (the CLI's default). Default false.
   */
  persistCache?: boolean;
}

function isResolved(config: ScanConfigInput | ScanConfig | undefined): config is ScanConfig {
  return config !== undefined && 'limits' in config && typeof (config as ScanConfig).limits.maxFiles === 'number';
}

async function statOrNull(path: string): Promise<Awaited<ReturnType<typeof stat>> | null> {
  try {
    return await stat(path);
  } catch {
    return null;
  }
}

/** A SKILL.md, a skill folder, or a folder of skills → the skill folders it names. */
async function resolveTargets(path: string, deep: boolean, readDir: ReadDir): Promise<string[]> {
  const info = await statOrNull(path);
  if (!info) {
    throw new SkillgardenError(
      'scan/not-found',
      `Cannot scan ${path}: no such file or folder. Pass a SKILL.md, a skill folder or a skills root.`,
      { data: { path } },
    );
  }
  if (info.isFile()) {
    if (basename(path) === 'SKILL.md') return [dirname(path)];
    throw new SkillgardenError(
      'scan/not-a-skill',
      `Cannot scan ${path}: it is a file but not a SKILL.md. Pass the skill's folder or its SKILL.md.`,
      { data: { path } },
    );
  }
  if (await statOrNull(resolve(path, 'SKILL.md'))) return [path];
  // The same discovery as validate's, so both see the same skills.
  return discoverSkills(path, { readDir, ...(deep ? { deep: { maxDepth: 8 } } : {}) }).map((skill) => skill.dir);
}

async function mapPool<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  if (limit <= 1) {
    const out: R[] = [];
    for (const item of items) out.push(await fn(item));
    return out;
  }
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

/**
 * The `scan` command's service: resolves the paths (or the repository's
 * skills root when none are given) to skill folders, scans each, and builds
 * the report of DESIGN §12.
 */
export async function runScan(paths: readonly string[], options: RunScanOptions = {}): Promise<ScanReport> {
  const repo = resolve(options.repo ?? '.');
  const config = isResolved(options.config) ? options.config : resolveScanConfig(options.config);
  const readDir = options.readDir ?? createDirCache();
  let dirs: string[];
  let escaped: EscapedSkill[] = [];
  if (paths.length > 0) {
    const roots = paths.map((p) => resolve(repo, p));
    dirs = [...new Set((await Promise.all(roots.map((r) => resolveTargets(r, options.deep ?? false, readDir)))).flat())];
  } else {
    // The library's one discovery, so scan sees exactly the skills validate and list see.
    const library = options.library ?? openLibrary(repo, options.skillsDir, { readDir });
    dirs = library.skills.map((s) => s.dir);
    escaped = library.escaped;
  }
  const cache = options.persistCache ? await openScanCache(repo, config) : undefined;
  const results = await scanSkillFolders(dirs, { ...options, repo, config, readDir, ...(cache ? { cache } : {}) });
  cache?.save();
  return buildScanReport([...results, ...escaped.map(escapedResult)]);
}

export interface ScanFoldersOptions extends Pick<RunScanOptions, 'files' | 'provenanceOf' | 'concurrency'> {
  repo: string;
  config: ScanConfig;
  readDir: ReadDir;
  /** A scan cache the caller opened (and saves, if it wants to). */
  cache?: ContentCache;
}

/** Scans skill folders already found (a library's, or part of one: validate spreads a large library over threads), in order. */
export async function scanSkillFolders(dirs: readonly string[], options: ScanFoldersOptions): Promise<ScanResult[]> {
  const { repo, config, readDir, cache } = options;
  // Each folder is scanned synchronously (the awaits are for the engine's first import): one after the other unless asked.
  return mapPool(dirs, options.concurrency ?? 1, (dir) => {
    const label = labelUnder(repo, dir);
    const provenance = options.provenanceOf?.({ name: basename(dir), dir: label });
    return scanSkillDir(dir, {
      config,
      label,
      readDir,
      ...(options.files ? { files: options.files } : {}),
      ...(provenance ? { provenance } : {}),
      ...(cache ? { cache } : {}),
    });
  });
}

/** A skill whose folder leads out of the repository is never read: it is dangerous as it stands. */
export function escapedResult(escaped: EscapedSkill): ScanResult {
  const label = escaped.location.path;
  const findings = [buildStructureFinding('structure-symlink-escape', label, `${label} -> ${escaped.target}`)];
  return { skill: escaped.location.name, dir: label, files: 0, bytes: 0, findings, verdict: buildVerdict(findings) };
}
