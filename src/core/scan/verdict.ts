import type { ScanFinding, ScanProvenance, ScanVerdict } from './types.js';

export interface VerdictOptions {
  /** Where the skill came from; decides whether its own inline markers count. */
  provenance?: ScanProvenance;
  /** Provenances whose inline markers lower the verdict. */
  inlineSuppressions?: readonly ScanProvenance[];
}

/**
 * Whether a finding counts toward the verdict. Config allow-list entries are
 * a person's decision and always count as suppressed; an inline marker is
 * written by the skill's own author, so it only counts for provenances the
 * owner trusts (an agent cannot talk its way past the scan with a comment).
 */
export function countsTowardVerdict(f: ScanFinding, options: VerdictOptions = {}): boolean {
  if (!f.suppressed) return true;
  if (f.suppressed.by === 'config') return false;
  const trusted = options.inlineSuppressions ?? ['bundled', 'trusted', 'user'];
  return options.provenance !== undefined && !trusted.includes(options.provenance);
}

/** Any high finding → dangerous; any medium → caution; else safe. */
export function buildVerdict(findings: readonly ScanFinding[], options: VerdictOptions = {}): ScanVerdict {
  let verdict: ScanVerdict = 'safe';
  for (const f of findings) {
    if (!countsTowardVerdict(f, options)) continue;
    if (f.severity === 'high') return 'dangerous';
    if (f.severity === 'medium') verdict = 'caution';
  }
  return verdict;
}
