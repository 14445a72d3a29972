import { SkillgardenError } from '../errors.js';
import { excerpt } from '../findings.js';
import { resolveScanConfig, type ScanConfig, type WriteSource } from './config.js';
import { buildContentFindings } from './content-findings.js';
import { decodeContent } from './content.js';
import { decidePolicy } from './policy-decision.js';
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

export { decidePolicy } from './policy-decision.js';

export interface WritePolicyInput {
  skill: string;
  /** The files as they would be after the write (path relative to the skill folder): text, or bytes judged as the scan judges a file. */
  files: ReadonlyArray<{ path: string; text: string } | { path: string; bytes: Uint8Array }>;
  provenance: ScanProvenance;
  /** For agent writes: a person asked (foreground) or the agent's own review (background). */
  source?: WriteSource;
  config?: ScanConfig;
}

export interface WritePolicyResult {
  verdict: ScanVerdict;
  decision: PolicyDecision;
  findings: ScanFinding[];
}

function scanFile(file: WritePolicyInput['files'][number]): ScanFinding[] {
  if ('text' in file) return scanSkillText(file.text, { file: file.path });
  // Content is content: the same judgement as the scan's, so a NUL byte does not turn the text scan off.
  const content = decodeContent(file.bytes, file.path, false);
  const found = buildContentFindings(content, file.path);
  return content.kind === 'text' ? [...found, ...scanSkillText(content.text, { file: file.path })] : found;
}

/** The scan and the policy on a would-be write, without acting on the decision. */
export function evaluateWritePolicy(input: WritePolicyInput): WritePolicyResult {
  const config = input.config ?? resolveScanConfig();
  const findings = applyAllowList(input.files.flatMap(scanFile), config.allow);
  const options = { provenance: input.provenance, inlineSuppressions: config.inlineSuppressions };
  const verdict = buildVerdict(findings, options);
  const decision = decidePolicy(input.provenance, verdict, config, input.source);
  return { verdict, decision, findings };
}

/** The findings that decided the verdict (no suppressed or low ones), for a message. */
export function decisiveFindings(result: WritePolicyResult, input: Pick<WritePolicyInput, 'provenance' | 'config'>): ScanFinding[] {
  const options = { provenance: input.provenance, inlineSuppressions: (input.config ?? resolveScanConfig()).inlineSuppressions };
  return result.findings.filter((f) => countsTowardVerdict(f, options) && f.severity !== 'low');
}

/** One finding on one line, for messages to agents and people. */
export function describeFinding(f: ScanFinding): string {
  return describe(f);
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
  const result = evaluateWritePolicy(input);
  if (result.decision === 'block') throw buildBlockedError(input, result);
  return result;
}

/** `scan/blocked`: what was found and what to do, so an agent fixes its content instead of retrying the same write. */
export function buildBlockedError(
  input: Pick<WritePolicyInput, 'skill' | 'provenance' | 'config'>,
  result: WritePolicyResult,
): SkillgardenError {
  const { verdict } = result;
  const blocking = decisiveFindings(result, input);
  const list = blocking.slice(0, 10).map(describe).join('\n  ');
  return new SkillgardenError(
    'scan/blocked',
    `Refused to write skill '${input.skill}': the security scan judged it ${verdict} and ${input.provenance} skills that are ${verdict} are blocked.\n  ${list}${blocking.length > 10 ? `\n  … and ${blocking.length - 10} more` : ''}\nRemove the flagged lines and write again. An inline skillgarden-ignore marker does not lift this for ${input.provenance} skills; a person can allow a rule under scan.allow in .skillgarden/config.yaml.`,
    { data: { skill: input.skill, provenance: input.provenance, verdict, findings: blocking } },
  );
}
