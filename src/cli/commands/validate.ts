import { resolve } from 'node:path';
import { SkillgardenError } from '../../core/errors.js';
import { renderFindingsGithub, renderFindingsText } from '../../core/report/render-findings.js';
import { isProfileName, profileNames } from '../../core/schema/types.js';
import type { ValidateReport } from '../../services/validate.js';
import { earlyWorkerCount, runValidatePass, startWorkersEarly, type ValidatePassOptions } from '../../services/validate-pass.js';
import { indexEntryCount } from '../../store/index-count.js';
import { compareFindings, type Finding } from '../../core/findings.js';
import { toFindings } from '../../core/scan/report.js';
import { createDirCache } from '../../store/dir-cache.js';
import { openKeptListings } from '../../store/dir-listings-file.js';
import { requireConfig } from '../../services/config-file.js';
import { openLibrary, requireSkills } from '../../store/layout/discover-library.js';
import { exitCodes, type Command, type CommandContext } from '../context.js';
import { createProgress } from '../progress.js';
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
    const first = await validateOnce(context);
    return finishValidate(context, first, () => validateOnce(context));
  },
};

export type Format = (typeof formats)[number];

/** One validation pass (schema, rules, evals and the security scan) as the options ask. */
async function validateOnce({ io, global, positionals, values }: CommandContext): Promise<{ report: ValidateReport; format: Format }> {
  const format = readFormat(values.format, global.json);
  const config = requireConfig(global.repo);
  const profile = values.profile ?? config.profile;
  if (!isProfileName(profile)) {
    throw new SkillgardenError('cli/usage', `unknown profile "${String(profile)}"; choose one of: ${profileNames.join(', ')}`);
  }
  const progress = createProgress(io, 'validating', format === 'text' && !io.env.CI);
  const allowEmpty = values['allow-empty'] === true;
  // Paths resolve against --repo, as `git -C` does; findings are reported relative to it.
  const paths = positionals;
  const cache = values['no-cache'] !== true;
  // Discovery's folder listings are the pass's: each skill folder is listed once. With the caches, a folder whose stat is
  // the one an earlier run kept with its listing is not listed again (dir-cache.ts).
  // The whole library only (no path, or the repository itself, as `validate .` names it): a run over a few paths would
  // read every listing kept to use a handful.
  const whole = paths.length === 0 || paths.every((p) => resolve(global.repo, p) === global.repo);
  const kept = cache && whole ? await openKeptListings(global.repo) : undefined;
  const readDir = createDirCache(undefined, kept?.kept);
  // One pass per skill (validate, then the scan on the SKILL.md validate read), over the machine's cores for a large library.
  const threads = readThreads(io.env.SKILLGARDEN_THREADS);
  const passOptions: ValidatePassOptions = {
    repo: global.repo,
    paths,
    profile,
    ...(config.links ? { links: config.links } : {}),
    scan: values['no-scan'] === true ? false : config.scan,
    cache,
    onProgress: progress.update,
    readDir,
    ...(kept ? { keptListings: true } : {}),
    ...(threads === undefined ? {} : { threads }),
  };
  // A first run over a large library (no listings kept, a big index): its workers start now, and load while discovery runs.
  const coldLibrary = threads === undefined && kept !== undefined && kept.kept.size === 0;
  const early = coldLibrary ? earlyWorkerCount(indexEntryCount(kept.gitdir)) : 0;
  const earlyWorkers = early > 0 ? startWorkersEarly(passOptions, early) : undefined;
  // With workers, discovery only probes each folder for SKILL.md: the listings are made by the threads, side by side.
  const probe = earlyWorkers ? { probe: 'stat' as const } : {};
  let pass;
  try {
    const library =
      paths.length > 0 ? undefined : requireSkills(openLibrary(global.repo, config.skills_dir, { readDir, ...probe }), { allowEmpty });
    pass = await runValidatePass({ ...passOptions, ...(library ? { library } : {}), ...(earlyWorkers ? { early: earlyWorkers } : {}) });
  } catch (error) {
    // A worker left waiting would keep the process alive.
    earlyWorkers?.workers.forEach((w) => w.stop());
    throw error;
  }
  kept?.save(readDir.fresh());
  const report = pass.report;
  progress.done();
  if (report.skills === 0 && paths.length > 0 && !allowEmpty) {
    throw new SkillgardenError(
      'library/empty',
      `no skills under ${paths.join(', ')} (a skill is a folder holding SKILL.md). Pass --allow-empty to accept that.`,
      { data: { exitCode: 2 } },
    );
  }
  if (pass.scan) {
    const scan = pass.scan;
    const found = toFindings(scan.findings);
    found.forEach((f, i) => scanSkillOf.set(f, scan.findings[i]!.skill));
    mergeFindings(report, found);
  }
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

/** Adds the security scan's findings to the report, in order, with the counts kept true. */
export function mergeFindings(report: ValidateReport, extra: readonly Finding[]): void {
  report.findings.push(...extra);
  report.findings.sort(compareFindings);
  report.errors = report.findings.filter((f) => f.severity === 'error').length;
  report.warnings = report.findings.filter((f) => f.severity === 'warning').length;
}

/** `SKILLGARDEN_THREADS`: how many threads the pass uses whatever the library's size (tests and benchmarks); unset: decided by size. */
function readThreads(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const threads = Number(value);
  if (!Number.isInteger(threads) || threads < 1) {
    throw new SkillgardenError('cli/usage', `SKILLGARDEN_THREADS=${JSON.stringify(value)}: give a whole number of threads, 1 or more`);
  }
  return threads;
}

function readFormat(value: unknown, json: boolean): Format {
  if (value === undefined) return json ? 'json' : 'text';
  if (typeof value === 'string' && (formats as readonly string[]).includes(value)) return value as Format;
  throw new SkillgardenError('cli/usage', `unknown format ${JSON.stringify(value)}; choose one of: ${formats.join(', ')}`);
}
