import type { ValidateReport } from '../../services/validate.js';
import type { Command, CommandContext } from '../context.js';
import { finishValidate } from './validate-extras.js';
import { readFormat, scanSkillOf, type Format } from './validate-format.js';

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

/** One pass (schema, rules, evals and the security scan), as the options ask. */
async function validateOnce(context: CommandContext, format: Format): Promise<{ report: ValidateReport; format: Format }> {
  // The pass and everything it loads (discovery, the caches, the config parser) are imported only when it runs.
  const { runValidateCommand } = await import('./validate-run.js');
  const { report, skillOf } = await runValidateCommand(context, format);
  for (const [f, skill] of skillOf) scanSkillOf.set(f, skill);
  return { report, format };
}
