import type { Dirent } from 'node:fs';
import { readFileSync } from 'node:fs';
import { basename, posix, resolve } from 'node:path';
import { resolveScanConfig, type ScanConfig } from '../../core/scan/config.js';
import { scanSkillText } from '../../core/scan/match.js';
import { decidePolicy } from '../../core/scan/policy.js';
import type { ScanResult } from '../../core/scan/report.js';
import { applyAllowList } from '../../core/scan/suppress.js';
import type { ScanFinding, ScanProvenance } from '../../core/scan/types.js';
import { buildVerdict } from '../../core/scan/verdict.js';
import { decodeContent, readContent } from './read-content.js';
import { buildStructureFinding } from './structure-finding.js';
import { walkSkill, type WalkedFile } from './walk-skill.js';

export interface ScanDirOptions {
  config?: ScanConfig;
  /** Known provenance: decides whether inline markers count and adds the policy decision. */
  provenance?: ScanProvenance;
  /** Prefix for reported paths (e.g. `skills/pdf`); defaults to the folder as given. */
  label?: string;
  /** The folder's entries when the caller already listed it (saves reading the folder twice). */
  listing?: readonly Dirent[];
}

const EXECUTABLE_BITS = 0o111;

function inFolder(rel: string, folder: string): boolean {
  return rel.startsWith(`${folder}/`);
}

function scanFile(file: WalkedFile, label: string, config: ScanConfig): ScanFinding[] {
  const shown = posix.join(label, file.rel);
  const out: ScanFinding[] = [];
  const { maxFileBytes } = config.limits;
  if (file.size > maxFileBytes) out.push(buildStructureFinding('structure-file-too-large', shown, `${file.size} bytes (limit ${maxFileBytes}); only the first ${maxFileBytes} scanned`));
  if ((file.mode & EXECUTABLE_BITS) !== 0 && !inFolder(file.rel, 'scripts')) out.push(buildStructureFinding('structure-executable-bit', shown, `${shown} is executable`));
  let content;
  try {
    content = file.size <= maxFileBytes ? decodeContent(readFileSync(file.abs), false) : readContent(file.abs, maxFileBytes);
  } catch (error) {
    return [...out, buildStructureFinding('structure-unreadable', shown, `${shown}: ${(error as Error).message}`)];
  }
  if (content.kind === 'native-executable') return [...out, buildStructureFinding('structure-native-executable', shown, shown)];
  if (content.kind === 'binary') {
    if (!inFolder(file.rel, 'assets')) out.push(buildStructureFinding('structure-binary-file', shown, shown));
    return out;
  }
  if (!content.utf8) out.push(buildStructureFinding('structure-not-utf8', shown, shown));
  return [...out, ...scanSkillText(content.text, { file: shown })];
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
  const walk = walkSkill(dir, config.limits, options.listing);
  const findings: ScanFinding[] = walk.findings.map((f) => ({ ...f, file: posix.join(label, f.file) }));
  for (const file of walk.files) findings.push(...scanFile(file, label, config));
  const allowed = applyAllowList(findings, config.allow);
  const verdict = buildVerdict(allowed, { provenance: options.provenance, inlineSuppressions: config.inlineSuppressions });
  const result: ScanResult = {
    skill: basename(resolve(dir)),
    dir: label,
    files: walk.files.length,
    bytes: walk.files.reduce((n, f) => n + Math.min(f.size, config.limits.maxFileBytes), 0),
    findings: allowed,
    verdict,
  };
  if (options.provenance) {
    result.provenance = options.provenance;
    result.decision = decidePolicy(options.provenance, verdict, config);
  }
  return result;
}
