export type {
  ScanCategory,
  ScanFinding,
  ScanProvenance,
  ScanRule,
  ScanSeverity,
  ScanSuppression,
  ScanVerdict,
  ScanVia,
  PolicyDecision,
} from './types.js';
export { THREAT_RULES, looksRandom, type ThreatRule } from './rules.js';
export { SPECIAL_RULES, type SpecialRule } from './special-rules.js';
export { scanSkillText, splitLines, KNOWN_RULE_IDS, type ScanTextOptions } from './match.js';
export { findInvisible, formatCodePoint } from './unicode.js';
export {
  applyAllowList,
  applyInlineSuppressions,
  parseSuppressionMarkers,
  type ScanAllowEntry,
  type SuppressionMarker,
} from './suppress.js';
export { buildVerdict, countsTowardVerdict, type VerdictOptions } from './verdict.js';
export {
  DEFAULT_LIMITS,
  DEFAULT_POLICY,
  resolveScanConfig,
  type ScanConfig,
  type ScanConfigInput,
  type ScanLimits,
  type PolicyTable,
  type WriteSource,
} from './config.js';
export { decodeContent, detectBinaryFormat, type ContentKind, type FileContent } from './content.js';
export { buildContentFindings } from './content-findings.js';
export { describeAddedFindings, listAddedFindings } from './added-findings.js';
export {
  buildBlockedError,
  checkWritePolicy,
  decidePolicy,
  decisiveFindings,
  describeFinding,
  evaluateWritePolicy,
  resolveProvenance,
  type ProvenanceInput,
  type WritePolicyInput,
  type WritePolicyResult,
} from './policy.js';
export { buildScanReport, renderScanText, toFindings, type ReportFinding, type ScanReport, type ScanResult } from './report.js';
