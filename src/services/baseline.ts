import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  buildBaseline,
  fingerprintOf,
  parseBaseline,
  splitByBaseline,
  type Baseline,
  type BaselineSplit,
  type FindingKey,
} from '../core/report/baseline.js';
import { SkillgardenError } from '../core/errors.js';
import type { Finding } from '../core/findings.js';
import { writeFileAtomic } from '../store/files.js';

const hash = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The fingerprint a finding has in baselines and in SARIF's partialFingerprints. */
export function findingFingerprint(finding: Finding): string {
  return fingerprintOf(finding, hash);
}

/** Reads `--baseline FILE`: a missing or malformed file is an operational error, never "no baseline". */
export function readBaseline(path: string): Baseline {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SkillgardenError('validate/baseline-unreadable', `cannot read the baseline ${path}: ${(error as Error).message}`, {
      data: { path },
      cause: error,
    });
  }
  const parsed = parseBaseline(text);
  if ('problem' in parsed) {
    throw new SkillgardenError(
      'validate/baseline-invalid',
      `${path} is not a usable baseline: ${parsed.problem}. Write one with validate --write-baseline ${path}.`,
      { data: { path } },
    );
  }
  return parsed;
}

/** Writes the findings as a baseline, whole or not at all (a temporary file renamed into place). */
export function writeBaseline(path: string, findings: readonly Finding[]): Baseline {
  const baseline = buildBaseline(findings, hash);
  writeFileAtomic(path, `${JSON.stringify(baseline, null, 2)}\n`);
  return baseline;
}

/** The findings as a baseline in memory (the Action compares a proposal's tree with its base's this way). */
export function buildFindingsBaseline(findings: readonly FindingKey[]): Baseline {
  return buildBaseline(findings, hash);
}

export function applyBaseline<F extends FindingKey>(findings: readonly F[], baseline: Baseline): BaselineSplit<F> {
  return splitByBaseline(findings, baseline, hash);
}
