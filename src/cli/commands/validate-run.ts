import { SkillgardenError } from '../../core/errors.js';
import type { Finding } from '../../core/findings.js';
import { isProfileName, profileNames } from '../../core/schema/types.js';
import { requireConfig } from '../../services/config-file.js';
import type { ValidateReport } from '../../services/validate.js';
import { mergeScanFindings, runValidateAndScan } from '../../services/validate-and-scan.js';
import type { CommandContext } from '../context.js';
import { createProgress } from '../progress.js';
import type { Format } from './validate-format.js';

/**
 * `validate`'s pass as the command's options ask: the one service the Action
 * and the library use, its scan findings merged into the report.
 * `skillOf`: the skill each scan finding is about.
 */
export async function runValidateCommand(
  { io, global, positionals, values }: CommandContext,
  format: Format,
): Promise<{ report: ValidateReport; skillOf: Map<Finding, string> }> {
  const config = requireConfig(global.repo);
  const profile = values.profile ?? config.profile;
  if (!isProfileName(profile)) {
    throw new SkillgardenError('cli/usage', `unknown profile "${String(profile)}"; choose one of: ${profileNames.join(', ')}`);
  }
  const allowEmpty = values['allow-empty'] === true;
  // Paths resolve against --repo, as `git -C` does; findings are reported relative to it.
  const paths = positionals;
  const progress = createProgress(io, 'validating', format === 'text' && !io.env.CI);
  const pass = await runValidateAndScan({
    cwd: global.repo,
    paths,
    skillsDir: config.skills_dir,
    requireSkills: !allowEmpty,
    profile,
    ...(config.links ? { links: config.links } : {}),
    scan: values['no-scan'] === true ? false : config.scan,
    onProgress: progress.update,
  });
  progress.done();
  if (pass.report.skills === 0 && paths.length > 0 && !allowEmpty) {
    throw new SkillgardenError(
      'library/empty',
      `no skills under ${paths.join(', ')} (a skill is a folder holding SKILL.md). Pass --allow-empty to accept that.`,
      { data: { exitCode: 2 } },
    );
  }
  return mergeScanFindings(pass.report, pass.scan);
}
