import { join } from 'node:path';
import { SkillgardenError } from '../../core/errors.js';
import { renderFindingsGithub, renderFindingsText } from '../../core/report/render-findings.js';
import { isProfileName, profileNames } from '../../core/schema/types.js';
import { runValidate, type ValidateReport } from '../../services/validate.js';
import { compareFindings, type Finding } from '../../core/findings.js';
import { toFindings } from '../../core/scan/index.js';
import { runScan } from '../../services/scan.js';
import { createDirCache } from '../../store/dir-cache.js';
import { createFileCache } from '../../store/file-cache.js';
import { requireConfig } from '../../services/config-file.js';
import { exitCodes, type Command } from '../context.js';
import { createProgress } from '../progress.js';

const formats = ['text', 'json', 'github'] as const;
type Format = (typeof formats)[number];

export const validateCommand: Command = {
  name: 'validate',
  summary: 'validate skills (a folder, a SKILL.md, or the whole skills root)',
  usage: 'validate [PATH…] [--format text|json|github] [--profile portable|spec|claude-code|hermes] [--no-scan]',
  options: {
    format: { type: 'string' },
    profile: { type: 'string' },
    'no-scan': { type: 'boolean' },
  },
  async run({ io, global, positionals, values }) {
    const format = readFormat(values.format, global.json);
    const config = requireConfig(global.repo);
    const profile = values.profile ?? config.profile;
    if (!isProfileName(profile)) {
      throw new SkillgardenError('cli/usage', `unknown profile "${String(profile)}"; choose one of: ${profileNames.join(', ')}`);
    }
    const progress = createProgress(io, 'validating', format === 'text' && !io.env.CI);
    const paths = positionals.length > 0 ? positionals : [join(global.repo, config.skills_dir)];
    // One pass over the library: the scan reuses validate's folder listings and SKILL.md reads.
    const readDir = createDirCache();
    const files = values['no-scan'] === true ? undefined : createFileCache();
    const report = runValidate({ cwd: io.cwd, paths, profile, onProgress: progress.update, readDir, ...(files ? { files } : {}) });
    progress.done();
    if (values['no-scan'] !== true) {
      const scan = await runScan(paths, {
        repo: io.cwd,
        config: config.scan,
        deep: positionals.length > 0,
        readDir,
        ...(files ? { files } : {}),
      });
      mergeFindings(report, toFindings(scan.findings));
    }
    if (format === 'json') io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else if (format === 'github') io.stdout.write(renderFindingsGithub(report.findings));
    else io.stdout.write(renderFindingsText(report.findings, report));
    return report.errors > 0 ? exitCodes.findings : exitCodes.ok;
  },
};

/** Adds the security scan's findings to the report, in order, with the counts kept true. */
function mergeFindings(report: ValidateReport, extra: readonly Finding[]): void {
  report.findings.push(...extra);
  report.findings.sort(compareFindings);
  report.errors = report.findings.filter((f) => f.severity === 'error').length;
  report.warnings = report.findings.filter((f) => f.severity === 'warning').length;
}

function readFormat(value: unknown, json: boolean): Format {
  if (value === undefined) return json ? 'json' : 'text';
  if (typeof value === 'string' && (formats as readonly string[]).includes(value)) return value as Format;
  throw new SkillgardenError('cli/usage', `unknown format ${JSON.stringify(value)}; choose one of: ${formats.join(', ')}`);
}
