import { SkillgardenError } from '../../core/errors.js';
import type { Finding } from '../../core/findings.js';
import { renderFindingsText } from '../../core/report/render-findings.js';
import type { SkillFileEntry } from '../../core/rules/index.js';
import { validateSkill } from '../../core/validate.js';
import {
  buildBlockedError,
  evaluateWritePolicy,
  resolveScanConfig,
  toFindings,
  type ScanConfig,
  type ScanVerdict,
} from '../../core/scan/index.js';
import { configFile, readConfig } from '../curator/read-library.js';
import type { ManageContext } from './context.js';

export interface ContentCheck {
  /** Repository-relative path of the SKILL.md being written. */
  file: string;
  folder: string;
  text: string;
  /** The SKILL.md before the change, when there was one: its existing errors are not the writer's fault. */
  before?: string;
  /** Paths relative to the skill folder after the change. */
  files: readonly string[];
}

/**
 * Refuses (writing nothing) when the new SKILL.md has errors it did not have
 * before. Returns the warnings, which the caller reports.
 */
export function checkSkillContent(ctx: ManageContext, check: ContentCheck): Finding[] {
  const files = new Map<string, SkillFileEntry>(check.files.map((path) => [path, { path, size: 0 }]));
  const run = (text: string) =>
    validateSkill({ file: check.file, content: text, folder: check.folder, profile: ctx.profile, files }).findings;
  const after = run(check.text);
  const known = new Set(check.before === undefined ? [] : run(check.before).filter(isError).map(key));
  const introduced = after.filter((f) => isError(f) && !known.has(key(f)));
  if (introduced.length > 0) {
    throw new SkillgardenError(
      'manage/invalid',
      `refused: ${check.file} would be invalid (nothing was written):\n${renderFindingsText(introduced, { skills: 1, errors: introduced.length, warnings: 0 }).trimEnd()}`,
      { data: { findings: introduced, exitCode: 1 } },
    );
  }
  return after.filter((f) => !isError(f));
}

const isError = (f: Finding) => f.severity === 'error';
const key = (f: Finding) => `${f.code}\u0000${f.message}`;

/** What the write gate decided: commit (`allow`), stage for a person's approval (`ask`); `block` throws instead. */
export interface WriteGate {
  decision: 'allow' | 'ask';
  verdict: ScanVerdict;
  /** Scan findings as the project's findings (`scan/<rule>`), reported with the write. */
  warnings: Finding[];
}

/**
 * The security scan on a write: the files the write puts, each judged whole,
 * as `scan` judges them (bytes, not a guess from a NUL). Every scan rule
 * reads one file (policy.ts) and the verdict is the worst finding, so a file
 * the write leaves alone adds nothing a write could be refused for: a one-line
 * patch of a 100,000-file skill reads one file, not 100,000 (issue #30). An
 * agent's or the curator's write gets the policy for its source: `block`
 * throws `scan/blocked` and nothing is written, `ask` is staged for approval.
 * A person's write is never gated; the findings come back as warnings.
 */
export function checkWriteScan(
  ctx: ManageContext,
  skill: string,
  dir: string,
  pending: ReadonlyMap<string, string | Uint8Array | null>,
): WriteGate {
  const person = ctx.actor === 'user';
  const scanConfig = readScanPolicy(ctx.repoDir, person);
  const files: { path: string; bytes: Uint8Array }[] = [];
  for (const [path, next] of pending) if (next !== null) files.push({ path, bytes: typeof next === 'string' ? Buffer.from(next) : next });
  const input = {
    skill,
    files,
    provenance: person ? ('user' as const) : ('agent' as const),
    config: scanConfig.config,
    ...(ctx.actor === 'agent' ? { source: ctx.source ?? 'foreground' } : { source: 'background' as const }),
  };
  const result = evaluateWritePolicy(input);
  if (result.decision === 'block' && !person) throw buildBlockedError(input, result);
  const shown = result.findings.map((f) => ({ ...f, file: `${dir}/${f.file}` }));
  const warnings = [...scanConfig.warnings, ...toFindings(shown).filter((f) => f.severity !== 'info')];
  return { decision: person || result.decision === 'allow' ? 'allow' : 'ask', verdict: result.verdict, warnings };
}

/**
 * The `scan:` settings a write needs. Invalid ones refuse an agent's or the
 * curator's write, naming the key (a typo such as `dangerous: blok` must not
 * fail open); a person's write is not gated, so it goes on with the defaults
 * and a warning.
 */
function readScanPolicy(repoDir: string, person: boolean): { config: ScanConfig; warnings: Finding[] } {
  const { config, findings, invalidKeys } = readConfig(repoDir);
  const bad = invalidKeys.includes('scan') || invalidKeys.includes('*');
  if (!bad) return { config: resolveScanConfig(config.scan), warnings: [] };
  const scanFindings = findings.filter((f) => invalidKeys.includes('*') || /^(unknown setting ")?scan\b/.test(f.message));
  if (person) return { config: resolveScanConfig(), warnings: scanFindings.map((f) => ({ ...f, severity: 'warning' as const })) };
  throw new SkillgardenError(
    'config/invalid',
    `refused: the write needs the scan policy, and ${configFile} has an invalid \`scan:\` setting (nothing was written):\n${scanFindings.map((f) => `  ${f.file}:${f.line} ${f.message}`).join('\n')}\nAsk a person to fix the setting, then write again.`,
    { data: { keys: ['scan'], findings: scanFindings, exitCode: 1 } },
  );
}
