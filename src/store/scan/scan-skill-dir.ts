import { basename, posix, resolve } from 'node:path';
import { resolveScanConfig, type ScanConfig } from '../../core/scan/config.js';
import { decidePolicy } from '../../core/scan/policy-decision.js';
import type { ScanResult } from '../../core/scan/report.js';
import { applyAllowList } from '../../core/scan/suppress.js';
import type { ScanFinding, ScanProvenance } from '../../core/scan/types.js';
import { buildVerdict } from '../../core/scan/verdict.js';
import type { ReadDir } from '../dir-cache.js';
import type { FileCache } from '../file-cache.js';
import { lstatIfAny } from '../fs-probe.js';
import type { ScanCache } from '../../core/scan/scan-cache.js';
import type { OpenedContent } from './read-content.js';
import type * as ScanEngine from './scan-engine.js';
import type { TrackedBlobs } from './tracked-blobs.js';
import { shownUnder } from './join-path.js';
import { buildStructureFinding } from './structure-finding.js';
import { walkSkill, type WalkedFile } from './walk-skill.js';

export interface ScanDirOptions {
  config?: ScanConfig;
  /** Known provenance: decides whether inline markers count and adds the policy decision. */
  provenance?: ScanProvenance;
  /** Prefix for reported paths (e.g. `skills/pdf`); defaults to the folder as given. */
  label?: string;
  /** Lists folders; pass the pass's cached one so discovery's listings are not read again. */
  readDir?: ReadDir;
  /** Files validate already read in this pass. */
  files?: FileCache;
  /** Content findings already computed, by blob id (scan-cache-file.ts): an unchanged file is not scanned again. */
  cache?: ContentCache;
}

/** The scan cache of a run, and git's index to take blob ids from without reading the files. */
export interface ContentCache {
  cache: ScanCache;
  tracked?: TrackedBlobs | undefined;
}

const EXECUTABLE_BITS = 0o111;

function inFolder(rel: string, folder: string): boolean {
  return rel.startsWith(`${folder}/`);
}

interface FileScan {
  findings: ScanFinding[];
  size: number;
}

function statFindings(file: WalkedFile, shown: string, size: number, mode: number, maxFileBytes: number): ScanFinding[] {
  const out: ScanFinding[] = [];
  if (size > maxFileBytes)
    out.push(
      buildStructureFinding(
        'structure-file-too-large',
        shown,
        `${size} bytes (limit ${maxFileBytes}); only the first ${maxFileBytes} scanned`,
      ),
    );
  if ((mode & EXECUTABLE_BITS) !== 0 && !inFolder(file.rel, 'scripts'))
    out.push(buildStructureFinding('structure-executable-bit', shown, `${shown} is executable`));
  return out;
}

/** What reads and judges a file's bytes (the rules, the matcher, content decoding): most of the scan's code. */
type Engine = typeof ScanEngine;
let engine: Engine | undefined;

/**
 * Loaded by the first file the cache does not answer: a repeat run over an
 * unchanged library never compiles the rule table (20–30 ms of its 0.4 s on
 * the corpus).
 */
async function loadEngine(): Promise<Engine> {
  return (engine ??= await import('./scan-engine.js'));
}

/** A file the cache did not answer: read, judged, and put in the cache. `oid`: its blob id from git's index, when that knows it. */
function scanFile(
  file: WalkedFile,
  shown: string,
  config: ScanConfig,
  options: ScanDirOptions,
  oid: string | undefined,
  engine: Engine,
): FileScan {
  const { maxFileBytes } = config.limits;
  let opened: OpenedContent;
  let bytes: Uint8Array;
  try {
    ({ opened, bytes } = readFileContent(engine, file.abs, maxFileBytes, options.files));
  } catch (error) {
    const info = lstatIfAny(file.abs);
    const out = info ? statFindings(file, shown, info.size, info.mode, maxFileBytes) : [];
    return {
      findings: [...out, buildStructureFinding('structure-unreadable', shown, `${shown}: ${(error as Error).message}`)],
      size: info?.size ?? 0,
    };
  }
  const { content, size, mode } = opened;
  const structure = statFindings(file, shown, size, mode, maxFileBytes);
  // A file cut at the limit is not cached: its blob id would need the bytes past the cut.
  // Git's index already names the blob of a tracked file whose stat it matches: hashing it again cost 0.2–0.5 s at 10,000 skills.
  const blob = options.cache && size <= maxFileBytes ? (oid ?? engine.blobId(bytes)) : undefined;
  const known = blob === undefined ? undefined : options.cache?.cache.get(blob, shown);
  const found = known ?? [
    ...engine.buildContentFindings(content, shown),
    ...(content.kind === 'text' ? engine.scanSkillText(content.text, { file: shown }) : []),
  ];
  if (blob !== undefined && known === undefined) options.cache?.cache.put(blob, shown, found);
  return { findings: [...structure, ...found], size };
}

/**
 * A tracked file git's index says is unchanged, whose findings the cache
 * holds: answered without opening it. Unchanged but not in the cache: its blob
 * id, so the caller keys what it finds without hashing the bytes.
 */
function fromIndex(file: WalkedFile, shown: string, options: ScanDirOptions): FileScan | { oid: string } | undefined {
  const tracked = options.cache?.tracked;
  if (!tracked) return undefined;
  const stat = options.files?.takeStat(file.abs) ?? lstatIfAny(file.abs);
  const oid = stat && tracked.oidIfUnchanged(file.abs, stat);
  if (!stat || oid === undefined) return undefined;
  const known = options.cache?.cache.get(oid, shown);
  if (!known) return { oid };
  // Not needed any more: a SKILL.md validate kept is released here.
  options.files?.take(file.abs);
  const maxFileBytes = (options.config ?? resolveScanConfig()).limits.maxFileBytes;
  return { findings: [...statFindings(file, shown, stat.size, stat.mode, maxFileBytes), ...known], size: stat.size };
}

function readFileContent(
  engine: Engine,
  path: string,
  maxBytes: number,
  files: FileCache | undefined,
): { opened: OpenedContent; bytes: Uint8Array } {
  let bytes: Uint8Array = new Uint8Array();
  const opened = engine.readContentWithStat(path, maxBytes, files, (read) => (bytes = read));
  return { opened, bytes };
}

/**
 * Scans one skill folder: structure (links, binaries, executables, sizes,
 * counts, depth) and the text of every file `.skillignore` leaves in, then
 * the config allow-list, the verdict and, when provenance is known, the policy
 * decision.
 */
export async function scanSkillDir(dir: string, options: ScanDirOptions = {}): Promise<ScanResult> {
  const config = options.config ?? resolveScanConfig();
  const label = (options.label ?? dir).split('\\').join('/');
  const walk = walkSkill(dir, config.limits, options.readDir);
  const findings: ScanFinding[] = walk.findings.map((f) => ({ ...f, file: posix.join(label, f.file) }));
  let bytes = 0;
  const fileOptions = { ...options, config };
  const show = shownUnder(label);
  for (const file of walk.files) {
    const shown = show(file.rel);
    const indexed = options.cache && fromIndex(file, shown, fileOptions);
    const scanned =
      indexed && 'findings' in indexed
        ? indexed
        : scanFile(file, shown, config, fileOptions, indexed ? indexed.oid : undefined, engine ?? (await loadEngine()));
    for (const item of scanned.findings) findings.push(item);
    bytes += Math.min(scanned.size, config.limits.maxFileBytes);
  }
  const allowed = applyAllowList(findings, config.allow);
  const verdict = buildVerdict(allowed, { provenance: options.provenance, inlineSuppressions: config.inlineSuppressions });
  const result: ScanResult = {
    skill: basename(resolve(dir)),
    dir: label,
    files: walk.files.length,
    bytes,
    findings: allowed,
    verdict,
  };
  if (options.provenance) {
    result.provenance = options.provenance;
    result.decision = decidePolicy(options.provenance, verdict, config);
  }
  return result;
}
