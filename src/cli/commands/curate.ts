import { join, resolve } from 'node:path';
import { runCurate } from '../../services/curator/curate.js';
import { readDefaultReportDir, writeReportFiles } from '../../services/curator/report-files.js';
import { describeSystemError } from '../../core/errors.js';
import { writeProposals } from '../../services/proposals/index.js';
import { exitCodes, type Command } from '../context.js';
import { renderWritten } from './proposals.js';
import { createProgress } from '../progress.js';
import { llmUsage, readLlmOption } from '../llm-option.js';

export const curateCommand: Command = {
  name: 'curate',
  summary:
    'one curator run: lifecycle transitions as commits (or, with --propose, as the branch skillgarden/lifecycle), run.json and REPORT.md',
  usage: `curate [--dry-run] [--propose] [--scheduled] [--transcripts GLOB…] [--consolidate] [--llm] [--report-dir DIR] [--allow-empty]   (--propose: the current branch and worktree untouched, every change a proposal branch; ${llmUsage})`,
  options: {
    'dry-run': { type: 'boolean' },
    propose: { type: 'boolean' },
    llm: { type: 'boolean' },
    scheduled: { type: 'boolean' },
    'report-dir': { type: 'string' },
    transcripts: { type: 'string', multiple: true },
    consolidate: { type: 'boolean' },
    'allow-empty': { type: 'boolean' },
  },
  async run({ io, global, values }) {
    const llm = readLlmOption(values.llm, io.env);
    const progress = createProgress(io, 'curating', !global.json);
    const dryRun = values['dry-run'] === true;
    const run = await runCurate({
      repoDir: global.repo,
      now: global.now,
      dryRun,
      scheduled: values.scheduled === true,
      propose: values.propose === true,
      allowEmpty: values['allow-empty'] === true,
      ...(llm ? { llm } : {}),
      ...(values.transcripts ? { transcripts: values.transcripts as string[] } : {}),
      ...(values.consolidate === true ? { consolidate: true } : {}),
      onProgress: progress.update,
    });
    progress.done();
    const { report, files } = run;
    // Umbrellas, drafted skills and (--propose) the lifecycle are proposals: each a branch of its own, the current branch and worktree untouched.
    const written =
      dryRun || report.gates.blocked_by !== null
        ? []
        : await writeProposals(global.repo, run.proposals, { now: global.now, withdraw: run.withdraw });
    const dir =
      typeof values['report-dir'] === 'string'
        ? resolve(global.repo, values['report-dir'])
        : await readDefaultReportDir(global.repo, report.run_id);
    let saved = true;
    try {
      writeReportFiles(dir, files.files);
    } catch (error) {
      // A dry run changes nothing, so a folder it cannot write (read-only, full, a dangling link) only costs the saved copy.
      if (!dryRun || typeof (error as { code?: unknown }).code !== 'string') throw error;
      io.stderr.write(`skillgarden: the report was not saved: ${describeSystemError(error) ?? (error as Error).message}\n`);
      saved = false;
    }
    if (global.json) io.stdout.write(`${JSON.stringify(written.length > 0 ? { ...report, proposals: written } : report, null, 2)}\n`);
    else
      io.stdout.write(
        `${files.markdown}\n${written.length > 0 ? `Proposals:\n${renderWritten(written)}` : ''}${saved ? `Report: ${join(dir, 'REPORT.md')} and run.json\n` : ''}`,
      );
    return report.status === 'failed' ? exitCodes.findings : exitCodes.ok;
  },
};
