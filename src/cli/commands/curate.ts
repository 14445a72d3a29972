import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderRunMarkdown } from '../../core/report/render-run.js';
import type { RunReport } from '../../core/report/run-report.js';
import { readGitDir } from '../../ledger/git-dir.js';
import { defaultReportDir, runCurator } from '../../services/curator/run-curator.js';
import { exitCodes, type Command } from '../context.js';
import { createProgress } from '../progress.js';

export const curateCommand: Command = {
  name: 'curate',
  summary: 'one curator run: lifecycle transitions as commits, run.json and REPORT.md',
  usage: 'curate [--dry-run] [--scheduled] [--report-dir DIR]',
  options: { 'dry-run': { type: 'boolean' }, scheduled: { type: 'boolean' }, 'report-dir': { type: 'string' } },
  async run({ io, global, values }) {
    const progress = createProgress(io, 'curating', !global.json);
    const { report } = await runCurator({
      repoDir: global.repo,
      now: global.now,
      dryRun: values['dry-run'] === true,
      scheduled: values.scheduled === true,
      onProgress: progress.update,
    });
    progress.done();
    const dir = typeof values['report-dir'] === 'string' ? resolve(io.cwd, values['report-dir']) : defaultReportDir(await readGitDir(global.repo), report.run_id);
    const markdown = renderRunMarkdown(report);
    writeReport(dir, report, markdown);
    if (global.json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else io.stdout.write(`${markdown}\nReport: ${join(dir, 'REPORT.md')} and run.json\n`);
    return report.status === 'failed' ? exitCodes.findings : exitCodes.ok;
  },
};

/** run.json and REPORT.md, each written atomically. */
export function writeReport(dir: string, report: RunReport, markdown: string): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of [['run.json', `${JSON.stringify(report, null, 2)}\n`], ['REPORT.md', markdown]] as const) {
    const temp = join(dir, `.${name}.${process.pid}.tmp`);
    writeFileSync(temp, content);
    renameSync(temp, join(dir, name));
  }
}
