import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Finding } from '../core/findings.js';
import { renderFindingsSarif } from '../core/report/render-sarif.js';
import { findingFingerprint } from '../services/baseline.js';
import { readPackageVersion } from '../version.js';

/**
 * Writes the validate findings as SARIF for github/codeql-action/upload-sarif
 * and returns the absolute path (the `sarif` output). Paths in it are relative
 * to the repository, as code scanning expects.
 */
export function writeSarifReport(file: string, workspace: string, findings: readonly Finding[]): string {
  const path = resolve(workspace, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, renderFindingsSarif(findings, { toolVersion: readPackageVersion(), fingerprint: findingFingerprint }));
  return path;
}
