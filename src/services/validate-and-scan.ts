import { compareFindings, type Finding } from '../core/findings.js';
import { resolveScanConfig, type ScanConfigInput } from '../core/scan/config.js';
import { buildScanReport, toFindings, type ScanReport, type ScanResult } from '../core/scan/report.js';
import { createDirCache } from '../store/dir-cache.js';
import { createFileCache } from '../store/file-cache.js';
import { openLibrary, requireSkills } from '../store/layout/discover-library.js';
import { resolveValidateTargets, validateReport, validateTargets, type ValidateOptions, type ValidateReport } from './validate.js';

export interface ValidateAndScanOptions extends Pick<
  ValidateOptions,
  'cwd' | 'paths' | 'skillsDir' | 'library' | 'profile' | 'links' | 'onProgress'
> {
  /** The `scan:` config; `false`: no security scan. */
  scan: ScanConfigInput | false;
  /** With no paths: a library with no skills throws `library/empty` (exit 2) rather than pass with nothing checked. */
  requireSkills?: boolean;
}

export interface ValidateAndScanResult {
  /** Schema, rules and evals: the library's report. */
  report: ValidateReport;
  /** The security scan's report, when it ran. */
  scan: ScanReport | undefined;
}

/**
 * `validate`'s one path, for the CLI, the Action and the library: every skill
 * validated, then scanned on what validate read (each folder listed once,
 * each SKILL.md read once), in discovery order.
 */
export async function runValidateAndScan(options: ValidateAndScanOptions): Promise<ValidateAndScanResult> {
  const readDir = createDirCache();
  const noPaths = options.paths === undefined || options.paths.length === 0;
  const discovered = noPaths ? (options.library ?? openLibrary(options.cwd, options.skillsDir, { readDir })) : undefined;
  if (discovered && options.requireSkills) requireSkills(discovered);
  const { targets, findings, explicit, library } = resolveValidateTargets(
    { ...options, ...(discovered ? { library: discovered } : {}) },
    readDir,
  );
  const config = options.scan === false ? undefined : resolveScanConfig(options.scan);
  // `--no-scan` loads none of the scan's folder walk, cache or engine.
  const scan = config ? await import('./scan.js') : undefined;
  const scanned: ScanResult[] = [];
  for (const [index, target] of targets.entries()) {
    // Held for one skill: its SKILL.md from validate's read to the scan's.
    const files = config ? createFileCache() : undefined;
    const found = validateTargets([target], explicit, {
      cwd: options.cwd,
      ...(options.profile ? { profile: options.profile } : {}),
      ...(options.links ? { links: options.links } : {}),
      readDir,
      // The scan reads every file next: validate's listing reads them (one open each, no lstat) and hands them on.
      ...(files && config ? { files, readAheadBytes: config.limits.maxFileBytes } : {}),
    });
    for (const f of found) findings.push(f);
    if (config && scan) {
      const [result] = await scan.scanSkillFolders([target.dir], {
        repo: options.cwd,
        config,
        readDir,
        ...(files ? { files } : {}),
      });
      scanned.push(result!);
    }
    options.onProgress?.(index + 1, targets.length);
  }
  const report = validateReport(options.profile ?? 'portable', targets.length, findings);
  const escaped = library?.escaped ?? [];
  return { report, scan: scan ? buildScanReport([...scanned, ...escaped.map(scan.escapedResult)]) : undefined };
}

/**
 * The report with the scan's findings among its own, in order, the counts
 * kept true; `skillOf` tells the skill each scan finding is about.
 */
export function mergeScanFindings(
  report: ValidateReport,
  scan: ScanReport | undefined,
): { report: ValidateReport; skillOf: Map<Finding, string> } {
  const skillOf = new Map<Finding, string>();
  if (!scan) return { report, skillOf };
  const found = toFindings(scan.findings);
  found.forEach((f, i) => skillOf.set(f, scan.findings[i]!.skill));
  const findings = [...report.findings, ...found].sort(compareFindings);
  return { report: validateReport(report.profile, report.skills, findings), skillOf };
}
