import { basename, posix, resolve } from 'node:path';
import { resolveScanConfig, type ScanConfig } from '../../core/scan/config.js';
import { buildContentFindings } from '../../core/scan/content-findings.js';
import { scanSkillText } from '../../core/scan/match.js';
import { decidePolicy } from '../../core/scan/policy.js';
import type { ScanResult } from '../../core/scan/report.js';
import { applyAllowList } from '../../core/scan/suppress.js';
import type { ScanFinding, ScanProvenance } from '../../core/scan/types.js';
import { buildVerdict } from '../../core/scan/verdict.js';
import type { ReadDir } from '../dir-cache.js';
import type { FileCache } from '../file-cache.js';
import { lstatIfAny } from '../fs-probe.js';
import { readContentWithStat, type OpenedContent } from './read-content.js';
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

function scanFile(file: WalkedFile, label: string, config: ScanConfig, files: FileCache | undefined): FileScan {
  const shown = posix.join(label, file.rel);
  const { maxFileBytes } = config.limits;
  let opened: OpenedContent;
  try {
    opened = readContentWithStat(file.abs, maxFileBytes, files);
  } catch (error) {
    const info = lstatIfAny(file.abs);
    const out = info ? statFindings(file, shown, info.size, info.mode, maxFileBytes) : [];
    return {
      findings: [...out, buildStructureFinding('structure-unreadable', shown, `${shown}: ${(error as Error).message}`)],
      size: info?.size ?? 0,
    };
  }
  const { content, size, mode } = opened;
  const out = [...statFindings(file, shown, size, mode, maxFileBytes), ...buildContentFindings(content, shown)];
  if (content.kind !== 'text') return { findings: out, size };
  return { findings: [...out, ...scanSkillText(content.text, { file: shown })], size };
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
  for (const file of walk.files) {
    const scanned = scanFile(file, label, config, options.files);
    findings.push(...scanned.findings);
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
