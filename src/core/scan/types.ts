/** How much a finding matters to the verdict: any `high` makes a skill dangerous, any `medium` makes it caution. */
export type ScanSeverity = 'high' | 'medium' | 'low';

export type ScanCategory =
  | 'exfiltration'
  | 'prompt-injection'
  | 'destructive'
  | 'persistence'
  | 'network'
  | 'obfuscation'
  | 'supply-chain'
  | 'privilege-escalation'
  | 'credential-exposure'
  | 'execution'
  | 'traversal'
  | 'mining'
  | 'unicode'
  | 'structure'
  | 'suppression';

/** One line-matched threat rule. `pattern` must not use the `g` or `y` flags (it is shared). */
export interface ScanRule {
  id: string;
  category: ScanCategory;
  severity: ScanSeverity;
  pattern: RegExp;
  message: string;
  hint: string;
}

/** How a finding was seen: on the raw line, after Unicode normalisation, after joining split strings, or inside decoded base64. */
export type ScanVia = 'raw' | 'normalized' | 'joined' | 'base64';

export interface ScanSuppression {
  reason: string;
  by: 'inline' | 'config';
}

export interface ScanFinding {
  rule: string;
  category: ScanCategory;
  severity: ScanSeverity;
  file: string;
  /** 1-based; 0 for whole-file findings. */
  line: number;
  /** 1-based; 0 for whole-line or whole-file findings. */
  column: number;
  /** The offending text, shortened. */
  match: string;
  message: string;
  hint: string;
  via: ScanVia;
  /** Present when a marker or the config allow-list covers this finding: it is kept, never dropped. */
  suppressed?: ScanSuppression;
}

export type ScanVerdict = 'safe' | 'caution' | 'dangerous';

/** Where a skill came from, which decides how much scrutiny its verdict gets. */
export type ScanProvenance = 'bundled' | 'trusted' | 'community' | 'agent' | 'user';

export type PolicyDecision = 'allow' | 'ask' | 'block';
