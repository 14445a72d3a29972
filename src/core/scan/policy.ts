import { SkillgardenError } from '../errors.js';
import { excerpt } from '../findings.js';
import { resolveScanConfig, type ScanConfig } from './config.js';
import { scanSkillText } from './match.js';
import { applyAllowList } from './suppress.js';
import type { PolicyDecision, ScanFinding, ScanProvenance, ScanVerdict } from './types.js';
import { buildVerdict, countsTowardVerdict } from './verdict.js';

/** How a skill's origin is known before trust is applied (DESIGN §4 plus hub sources). */
export interface ProvenanceInput {
  kind: 'bundled' | 'hub' | 'agent' | 'user';
  /** For hub skills: where it came from, e.g. `github.com/anthropics/skills/pdf`. */
  source?: string;
}

function normalizeSource(source: string): string {
  return source
    .replace(/^[a-z+]+:\/\//i, '')
    .replace(/\.git$/, '')
    .replace(/\/+$/, '')
    .toLowerCase();
}

/** A hub skill from a configured trusted source is `trusted`; any other hub skill is `community`. */
export function resolveProvenance(input: ProvenanceInput, trustedSources: readonly string[]): ScanProvenance {
  if (input.kind !== 'hub') return input.kind;
  const source = normalizeSource(input.source ?? '');
  const trusted = trustedSources.map(normalizeSource).some((t) => t !== '' && (source === t || source.startsWith(`${t}/`)));
  return trusted ? 'trusted' : 'community';
}

export function decidePolicy(provenance: ScanProvenance, verdict: ScanVerdict, config: ScanConfig = resolveScanConfig()): PolicyDecision {
  return config.policy[provenance][verdict];
}

export interface WritePolicyInput {
  skill: string;
  /** The files as they would be after the write (path relative to the skill folder). */
  files: ReadonlyArray<{ path: string; text: string }>;
  provenance: ScanProvenance;
  config?: ScanConfig;
}

export interface WritePolicyResult {
  verdict: ScanVerdict;
  decision: PolicyDecision;
  findings: ScanFinding[];
}

function describe(f: ScanFinding): string {
  return `${f.file}:${f.line}:${f.column} ${f.severity} ${f.rule} ${f.message}: ${excerpt(f.match, 60)}`;
}

/**
 * The gate skill_manage calls before it writes: scans the would-be files and
 * applies the policy. Returns the decision for `allow` and `ask` (the caller
 * asks the person); throws `scan/blocked` with the findings for `block`, with
 * a message that says what to remove, so an agent fixes its content instead
 * of retrying the same write.
 */
export function checkWritePolicy(input: WritePolicyInput): WritePolicyResult {
  const config = input.config ?? resolveScanConfig();
  const raw = input.files.flatMap((f) => scanSkillText(f.text, { file: f.path }));
  const findings = applyAllowList(raw, config.allow);
  const options = { provenance: input.provenance, inlineSuppressions: config.inlineSuppressions };
  const verdict = buildVerdict(findings, options);
  const decision = decidePolicy(input.provenance, verdict, config);
  if (decision === 'block') {
    const blocking = findings.filter((f) => countsTowardVerdict(f, options) && f.severity !== 'low');
    const list = blocking.slice(0, 10).map(describe).join('\n  ');
    throw new SkillgardenError(
      'scan/blocked',
      `Refused to write skill '${input.skill}': the security scan judged it ${verdict} and ${input.provenance} skills that are ${verdict} are blocked.\n  ${list}${blocking.length > 10 ? `\n  … and ${blocking.length - 10} more` : ''}\nRemove the flagged lines and write again. An inline skillgarden-ignore marker does not lift this for ${input.provenance} skills; a person can allow a rule under scan.allow in .skillgarden/config.yaml.`,
      { data: { skill: input.skill, provenance: input.provenance, verdict, findings: blocking } },
    );
  }
  return { verdict, decision, findings };
}
