import { resolve } from 'node:path';
import { SkillgardenError } from '../../core/errors.js';
import type { ValidateReport } from '../../services/validate.js';
import { exitCodes, type CommandContext } from '../context.js';
import { showReport, type Format } from './validate-format.js';
import { readPackageVersion } from '../../version.js';

type Pass = { report: ValidateReport; format: Format };

/**
 * What `validate` does after its pass: `--fix` (diffs, one commit, then a new
 * pass), `--write-baseline FILE`, `--baseline FILE` (known findings pass, new
 * ones fail), then the report in its format.
 */
export async function finishValidate(context: CommandContext, first: Pass, again: () => Promise<Pass>): Promise<number> {
  const { io, values } = context;
  const baselineFile = typeof values.baseline === 'string' ? resolve(io.cwd, values.baseline) : undefined;
  const writeFile = typeof values['write-baseline'] === 'string' ? resolve(io.cwd, values['write-baseline']) : undefined;
  if (baselineFile && writeFile) throw new SkillgardenError('cli/usage', 'use --baseline FILE or --write-baseline FILE, not both');
  let pass = first;
  if (values.fix === true) pass = await fixThenRevalidate(context, pass, again);
  else if (values['dry-run'] === true)
    throw new SkillgardenError('cli/usage', '--dry-run goes with --fix (show the fixes, commit nothing)');
  const { report, format } = pass;
  // Loaded when used: a baseline hashes each finding (node:crypto), and most runs have none.
  const baselines = baselineFile || writeFile || format === 'sarif' ? await import('../../services/baseline.js') : undefined;
  if (writeFile && baselines) {
    const { writeBaseline } = baselines;
    const baseline = writeBaseline(writeFile, report.findings);
    io.stderr.write(`wrote ${baseline.findings.length} finding(s) to the baseline ${values['write-baseline'] as string}\n`);
    return exitCodes.ok;
  }
  let known: ValidateReport['findings'] = [];
  if (baselineFile && baselines) {
    const { applyBaseline, readBaseline } = baselines;
    const split = applyBaseline(report.findings, readBaseline(baselineFile));
    known = split.known;
    report.findings = split.fresh;
    report.errors = split.fresh.filter((f) => f.severity === 'error').length;
    report.warnings = split.fresh.filter((f) => f.severity === 'warning').length;
    Object.assign(report, { baselined: split.known.length, baseline_gone: split.gone.length });
    if (format === 'text') {
      const gone =
        split.gone.length > 0
          ? `; ${split.gone.length} baseline entr${split.gone.length === 1 ? 'y matches' : 'ies match'} nothing now (re-write it to drop them)`
          : '';
      io.stderr.write(`${split.known.length} known finding(s) accepted by the baseline${gone}\n`);
    }
  }
  const sarifModule = format === 'sarif' ? await import('../../core/report/render-sarif.js') : undefined;
  const sarif = () =>
    sarifModule!.renderFindingsSarif(report.findings, {
      toolVersion: readPackageVersion(),
      fingerprint: baselines!.findingFingerprint,
      baselined: known,
      ...(values.baseline ? { baselineFile: values.baseline as string } : {}),
    });
  return showReport(context, report, format, sarif);
}

async function fixThenRevalidate(context: CommandContext, pass: Pass, again: () => Promise<Pass>): Promise<Pass> {
  const { io, global, values } = context;
  // Imported here: the ledger and its git backends are most of the code `validate` could load (0.75 MB of
  // isomorphic-git, pako and simple-git), and only `--fix` writes.
  const [{ openRepoLedger }, { runFix }] = await Promise.all([import('../open-repo.js'), import('../../services/fix.js')]);
  const ledger = await openRepoLedger(context);
  try {
    const dryRun = values['dry-run'] === true;
    const result = await runFix({ repoDir: global.repo, cwd: io.cwd, ledger, findings: pass.report.findings, dryRun });
    // Diffs go to stderr: stdout stays the report, in whatever format was asked.
    for (const file of result.fixed) io.stderr.write(file.diff);
    for (const skip of result.skipped) io.stderr.write(`not fixed: ${skip.path} ${skip.reason}\n`);
    if (result.commit) io.stderr.write(`fixed ${result.fixed.length} file(s) in commit ${result.commit.slice(0, 12)}\n`);
    else if (result.fixed.length === 0) io.stderr.write('nothing to fix\n');
    return dryRun || !result.commit ? pass : await again();
  } finally {
    await ledger.close();
  }
}
