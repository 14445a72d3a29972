import { SkillgardenError } from '../../core/errors.js';
import { requireConfig } from '../../services/curator/read-library.js';
import { readLibraryRoots } from '../../services/library.js';
import { runDoctor, type DoctorReport } from '../../services/doctor.js';
import { exitCodes, type Command } from '../context.js';

export const doctorCommand: Command = {
  name: 'doctor',
  summary: 'report (and with --fix repair) what a crash or a killed process left behind',
  usage: 'doctor [--fix]',
  options: { fix: { type: 'boolean' } },
  async run({ io, global, values, positionals }) {
    if (positionals.length > 0) throw new SkillgardenError('cli/usage', 'doctor takes no arguments; add --fix to repair');
    const fix = values.fix === true;
    const report = await runDoctor(global.repo, { fix, skillsDir: readLibraryRoots(global.repo, requireConfig(global.repo).skills_dir) });
    io.stdout.write(global.json ? `${JSON.stringify(report, null, 2)}\n` : renderDoctor(report, fix));
    const left = report.findings.filter((f) => !fix || !f.fixable);
    return left.length === 0 ? exitCodes.ok : exitCodes.findings;
  },
};

function renderDoctor(report: DoctorReport, fix: boolean): string {
  if (report.findings.length === 0) return 'Nothing left behind: no journals, stale locks or temporary files.\n';
  const lines = report.findings.map(
    (f) => `${f.kind.padEnd(17)} ${f.path}\n${' '.repeat(18)}${f.message}${f.fixable && !fix ? ' (--fix repairs it)' : ''}`,
  );
  const fixed = report.fixed.map((line) => `fixed: ${line}`);
  return `${[...lines, ...fixed].join('\n')}\n`;
}
