import { resolveScanConfig, type ScanConfig, type WriteSource } from './config.js';
import type { PolicyDecision, ScanProvenance, ScanVerdict } from './types.js';

/**
 * The decision for a provenance and verdict; a write's source (foreground or
 * background) may override the provenance's row. Apart from policy.ts so the
 * scan of a folder the cache answers does not load the rules with it.
 */
export function decidePolicy(
  provenance: ScanProvenance,
  verdict: ScanVerdict,
  config: ScanConfig = resolveScanConfig(),
  source?: WriteSource,
): PolicyDecision {
  return (source && config.bySource[source][provenance]?.[verdict]) ?? config.policy[provenance][verdict];
}
