import { SkillgardenError } from '../../core/errors.js';
import type { Finding } from '../../core/findings.js';
import { renderFindingsGithub, renderFindingsText } from '../../core/report/render-findings.js';
import type { ValidateReport } from '../../services/validate.js';
import { exitCodes, type CommandContext } from '../context.js';

const formats = ['text', 'json', 'github', 'sarif'] as const;

/** The output formats of `validate`. */
export type Format = (typeof formats)[number];

/** The skill each scan finding is about: the text output groups repeats of one rule in one skill. */
export const scanSkillOf = new WeakMap<Finding, string>();

/** Prints the report in its format; SARIF also carries the findings a baseline accepted, as suppressed. */
export function showReport(context: CommandContext, report: ValidateReport, format: Format, sarif: () => string): number {
  const { io } = context;
  if (format === 'json') io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else if (format === 'github') io.stdout.write(renderFindingsGithub(report.findings));
  else if (format === 'sarif') io.stdout.write(sarif());
  else io.stdout.write(renderFindingsText(report.findings, report, { groupOf: (f) => scanSkillOf.get(f) }));
  return report.errors > 0 ? exitCodes.findings : exitCodes.ok;
}

export function readFormat(value: unknown, json: boolean): Format {
  if (value === undefined) return json ? 'json' : 'text';
  if (typeof value === 'string' && (formats as readonly string[]).includes(value)) return value as Format;
  throw new SkillgardenError('cli/usage', `unknown format ${JSON.stringify(value)}; choose one of: ${formats.join(', ')}`);
}
