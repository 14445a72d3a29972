import type { ScanAllowEntry } from './suppress.js';
import type { PolicyDecision, ScanProvenance, ScanVerdict } from './types.js';

export type PolicyTable = Record<ScanProvenance, Record<ScanVerdict, PolicyDecision>>;

/** Who asked for a write: a person (foreground) or the agent's own review (background). */
export type WriteSource = 'foreground' | 'background';

type PolicyOverrides = Partial<Record<ScanProvenance, Partial<Record<ScanVerdict, PolicyDecision>>>>;

/**
 * The `scan:` key of `.skillgarden/config.yaml`, as written (snake_case, all
 * optional). `schemas/scan-config.schema.json` describes the same shape.
 */
export interface ScanConfigInput {
  /** Overrides per provenance and verdict, e.g. `{ agent: { caution: allow } }`. */
  policy?: PolicyOverrides;
  /** Overrides of `policy` for writes from one source, e.g. `{ background: { agent: { caution: ask } } }`. */
  by_source?: Partial<Record<WriteSource, PolicyOverrides>>;
  /** Hub sources treated as `trusted` (prefix match on the source, e.g. `github.com/anthropics/skills`). */
  trusted_sources?: string[];
  /** Findings a person has reviewed and accepted: kept in the report as suppressed. */
  allow?: ScanAllowEntry[];
  limits?: {
    max_files?: number;
    max_file_bytes?: number;
    max_depth?: number;
  };
  /** Provenances whose inline `skillgarden-ignore` markers lower the verdict (default: bundled, trusted, user). */
  inline_suppressions?: ScanProvenance[];
}

export interface ScanLimits {
  maxFiles: number;
  maxFileBytes: number;
  maxDepth: number;
}

export interface ScanConfig {
  policy: PolicyTable;
  bySource: Record<WriteSource, PolicyOverrides>;
  trustedSources: string[];
  allow: ScanAllowEntry[];
  limits: ScanLimits;
  inlineSuppressions: ScanProvenance[];
}

/**
 * Bundled and user skills are the owner's own: always allowed, still
 * reported. Agent-written and hub skills get a person's approval for anything
 * flagged and are refused outright when dangerous. Trusted sources are asked
 * about only when dangerous.
 */
export const DEFAULT_POLICY: PolicyTable = {
  bundled: { safe: 'allow', caution: 'allow', dangerous: 'allow' },
  user: { safe: 'allow', caution: 'allow', dangerous: 'allow' },
  trusted: { safe: 'allow', caution: 'allow', dangerous: 'ask' },
  community: { safe: 'allow', caution: 'ask', dangerous: 'block' },
  agent: { safe: 'allow', caution: 'ask', dangerous: 'block' },
};

export const DEFAULT_LIMITS: ScanLimits = { maxFiles: 200, maxFileBytes: 1024 * 1024, maxDepth: 6 };

/** Merges the written config over the defaults; unknown or missing parts keep the default. */
export function resolveScanConfig(input: ScanConfigInput = {}): ScanConfig {
  const policy = Object.fromEntries(
    Object.entries(DEFAULT_POLICY).map(([provenance, row]) => [
      provenance,
      { ...row, ...(input.policy?.[provenance as ScanProvenance] ?? {}) },
    ]),
  ) as PolicyTable;
  return {
    policy,
    bySource: { foreground: input.by_source?.foreground ?? {}, background: input.by_source?.background ?? {} },
    trustedSources: input.trusted_sources ?? [],
    allow: input.allow ?? [],
    limits: {
      maxFiles: input.limits?.max_files ?? DEFAULT_LIMITS.maxFiles,
      maxFileBytes: input.limits?.max_file_bytes ?? DEFAULT_LIMITS.maxFileBytes,
      maxDepth: input.limits?.max_depth ?? DEFAULT_LIMITS.maxDepth,
    },
    inlineSuppressions: input.inline_suppressions ?? ['bundled', 'trusted', 'user'],
  };
}
