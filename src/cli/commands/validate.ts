import { SkillgardenError } from '../../core/errors.js';
import { renderFindingsGithub, renderFindingsText } from '../../core/report/render-findings.js';
import type { ValidateReport } from '../../services/validate.js';
import type { Finding } from '../../core/findings.js';
import { openValidateMemo, printReport, type KeptRun, type OpenedMemo } from '../../services/validate-memo.js';
import { exitCodes, type Command, type CommandContext } from '../context.js';
import { finishValidate } from './validate-extras.js';

const formats = ['text', 'json', 'github', 'sarif'] as const;

export const validateCommand: Command = {
  name: 'validate',
  summary: 'validate skills (a folder, a SKILL.md, or the whole skills root)',
  usage:
    'validate [PATH…] [--format text|json|github|sarif] [--profile portable|spec|claude-code|hermes|agent-plugins] [--no-scan] [--no-cache] [--allow-empty] [--baseline FILE] [--write-baseline FILE] [--fix [--dry-run]]',
  options: {
    format: { type: 'string' },
    profile: { type: 'string' },
    'no-scan': { type: 'boolean' },
    'no-cache': { type: 'boolean' },
    'allow-empty': { type: 'boolean' },
    baseline: { type: 'string' },
    'write-baseline': { type: 'string' },
    fix: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
  },
  async run(context) {
    const memo = openMemo(context);
    const kept = memo?.hit();
    // The kept report as `--json` prints it, when nothing acts on it after the pass: written out as kept.
    if (kept && readFormat(context.values.format, context.global.json) === 'json' && !actsAfterPass(context.values)) {
      context.io.stdout.write(kept.printed);
      return exitCodeOf(kept.errors);
    }
    const first = await validateOnce(context, memo, kept);
    return finishValidate(context, first, () => validateOnce(context, undefined, undefined));
  },
};

export type Format = (typeof formats)[number];

/**
 * The memo of this run's repeat (validate-memo.ts): none with --no-cache, and
 * none for --fix, which writes and validates again (its passes are never kept
 * nor taken from a kept one).
 */
function openMemo(context: CommandContext): OpenedMemo | undefined {
  const { global, values } = context;
  if (values['no-cache'] === true || values.fix === true) return undefined;
  return openValidateMemo({ repo: global.repo, moduleUrl: import.meta.url, args: memoArgs(context) });
}

/** What the report depends on among the command's arguments (the format, a baseline and --fix act after the pass). */
function memoArgs({ positionals, values }: CommandContext): unknown {
  return [positionals, values.profile ?? null, values['no-scan'] === true, values['allow-empty'] === true];
}

/** Options that change the report after the pass, or print something else. */
function actsAfterPass(values: CommandContext['values']): boolean {
  return values.baseline !== undefined || values['write-baseline'] !== undefined || values.fix === true || values['dry-run'] === true;
}

/**
 * One validation pass (schema, rules, evals and the security scan) as the
 * options ask, or the kept report of an unchanged earlier run: checked by a
 * stat of each folder it listed and each file in them.
 */
async function validateOnce(
  context: CommandContext,
  memo: OpenedMemo | undefined,
  kept: KeptRun | undefined,
): Promise<{ report: ValidateReport; format: Format }> {
  const format = readFormat(context.values.format, context.global.json);
  // The pass and everything it loads (discovery, the caches, the config parser) are imported only when it runs.
  const { report, groups } = kept?.report() ?? (await (await import('./validate-run.js')).runValidateCommand(context, format, memo));
  report.findings.forEach((f, i) => {
    const group = groups[i];
    if (group !== null && group !== undefined) scanSkillOf.set(f, group);
  });
  return { report, format };
}

/** The skill each scan finding is about: the text output groups repeats of one rule in one skill. */
const scanSkillOf = new WeakMap<Finding, string>();

/** Prints the report in its format; SARIF also carries the findings a baseline accepted, as suppressed. */
export function showReport(context: CommandContext, report: ValidateReport, format: Format, sarif: () => string): number {
  const { io } = context;
  if (format === 'json') io.stdout.write(printReport(report));
  else if (format === 'github') io.stdout.write(renderFindingsGithub(report.findings));
  else if (format === 'sarif') io.stdout.write(sarif());
  else io.stdout.write(renderFindingsText(report.findings, report, { groupOf: (f) => scanSkillOf.get(f) }));
  return exitCodeOf(report.errors);
}

const exitCodeOf = (errors: number): number => (errors > 0 ? exitCodes.findings : exitCodes.ok);

function readFormat(value: unknown, json: boolean): Format {
  if (value === undefined) return json ? 'json' : 'text';
  if (typeof value === 'string' && (formats as readonly string[]).includes(value)) return value as Format;
  throw new SkillgardenError('cli/usage', `unknown format ${JSON.stringify(value)}; choose one of: ${formats.join(', ')}`);
}
