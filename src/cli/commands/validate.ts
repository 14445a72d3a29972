import { SkillgardenError } from '../../core/errors.js';
import { renderFindingsGithub, renderFindingsText } from '../../core/report/render-findings.js';
import type { ValidateReport } from '../../services/validate.js';
import type { Finding } from '../../core/findings.js';
import { exitCodes, type Command, type CommandContext } from '../context.js';
import { finishValidate } from './validate-extras.js';

const formats = ['text', 'json', 'github', 'sarif'] as const;

export const validateCommand: Command = {
  name: 'validate',
  summary: 'validate skills (a folder, a SKILL.md, or the whole skills root)',
  usage:
    'validate [PATH…] [--format text|json|github|sarif] [--profile portable|spec|claude-code|hermes|agent-plugins] [--no-scan] [--allow-empty] [--baseline FILE] [--write-baseline FILE] [--fix [--dry-run]]',
  options: {
    format: { type: 'string' },
    profile: { type: 'string' },
    'no-scan': { type: 'boolean' },
    // Accepted so that scripts written for the releases that kept caches still run: validate keeps none.
    'no-cache': { type: 'boolean' },
    'allow-empty': { type: 'boolean' },
    baseline: { type: 'string' },
    'write-baseline': { type: 'string' },
    fix: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
  },
  async run(context) {
    const format = readFormat(context.values.format, context.global.json);
    return finishValidate(context, await validateOnce(context, format), () => validateOnce(context, format));
  },
};

export type Format = (typeof formats)[number];

/** One pass (schema, rules, evals and the security scan), as the options ask. */
async function validateOnce(context: CommandContext, format: Format): Promise<{ report: ValidateReport; format: Format }> {
  // The pass and everything it loads (discovery, the caches, the config parser) are imported only when it runs.
  const { runValidateCommand } = await import('./validate-run.js');
  const { report, skillOf } = await runValidateCommand(context, format);
  for (const [f, skill] of skillOf) scanSkillOf.set(f, skill);
  return { report, format };
}

/** The skill each scan finding is about: the text output groups repeats of one rule in one skill. */
const scanSkillOf = new WeakMap<Finding, string>();

/** Prints the report in its format; SARIF also carries the findings a baseline accepted, as suppressed. */
export function showReport(context: CommandContext, report: ValidateReport, format: Format, sarif: () => string): number {
  const { io } = context;
  if (format === 'json') io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else if (format === 'github') io.stdout.write(renderFindingsGithub(report.findings));
  else if (format === 'sarif') io.stdout.write(sarif());
  else io.stdout.write(renderFindingsText(report.findings, report, { groupOf: (f) => scanSkillOf.get(f) }));
  return report.errors > 0 ? exitCodes.findings : exitCodes.ok;
}

function readFormat(value: unknown, json: boolean): Format {
  if (value === undefined) return json ? 'json' : 'text';
  if (typeof value === 'string' && (formats as readonly string[]).includes(value)) return value as Format;
  throw new SkillgardenError('cli/usage', `unknown format ${JSON.stringify(value)}; choose one of: ${formats.join(', ')}`);
}
