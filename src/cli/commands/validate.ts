import { join } from 'node:path';
import { SkillgardenError } from '../../core/errors.js';
import { defaultSkillsDir } from '../../core/layout.js';
import { renderFindingsGithub, renderFindingsText } from '../../core/report/render-findings.js';
import { isProfileName, profileNames } from '../../core/schema/types.js';
import { runValidate } from '../../services/validate.js';
import { exitCodes, type Command } from '../context.js';
import { createProgress } from '../progress.js';

const formats = ['text', 'json', 'github'] as const;
type Format = (typeof formats)[number];

export const validateCommand: Command = {
  name: 'validate',
  summary: 'validate skills (a folder, a SKILL.md, or the whole skills root)',
  usage: 'validate [PATH…] [--format text|json|github] [--profile portable|spec|claude-code|hermes]',
  options: {
    format: { type: 'string' },
    profile: { type: 'string' },
  },
  async run({ io, global, positionals, values }) {
    const format = readFormat(values.format, global.json);
    const profile = values.profile ?? 'portable';
    if (!isProfileName(profile)) {
      throw new SkillgardenError('cli/usage', `unknown profile "${String(profile)}"; choose one of: ${profileNames.join(', ')}`);
    }
    const progress = createProgress(io, 'validating', format === 'text' && !io.env.CI);
    const paths = positionals.length > 0 ? positionals : [join(global.repo, defaultSkillsDir)];
    const report = runValidate({ cwd: io.cwd, paths, profile, onProgress: progress.update });
    progress.done();
    if (format === 'json') io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else if (format === 'github') io.stdout.write(renderFindingsGithub(report.findings));
    else io.stdout.write(renderFindingsText(report.findings, report));
    return report.errors > 0 ? exitCodes.findings : exitCodes.ok;
  },
};

function readFormat(value: unknown, json: boolean): Format {
  if (value === undefined) return json ? 'json' : 'text';
  if (typeof value === 'string' && (formats as readonly string[]).includes(value)) return value as Format;
  throw new SkillgardenError('cli/usage', `unknown format "${String(value)}"; choose one of: ${formats.join(', ')}`);
}
