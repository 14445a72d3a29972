import { SkillgardenError } from '../../core/errors.js';
import { installFrozen } from '../../services/vendor/install.js';
import { exitCodes, type Command } from '../context.js';
import { repoConfig } from '../open-repo.js';

export const installCommand: Command = {
  name: 'install',
  summary: 'restore vendored skills exactly as skills-lock.json pins them (--frozen), verifying each digest',
  usage: 'install --frozen',
  options: { frozen: { type: 'boolean' } },
  async run(context) {
    if (context.values.frozen !== true || context.positionals.length > 0) {
      throw new SkillgardenError('cli/usage', 'install takes --frozen (restore exactly what skills-lock.json pins) and no arguments');
    }
    const config = repoConfig(context, ['skills_dir']);
    const result = await installFrozen(context.global.repo, { skillsDir: config.skills_dir ?? undefined });
    if (context.global.json) context.io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else {
      for (const r of result.restored) context.io.stdout.write(`restored ${r.name}: ${r.dir} (from its pinned commit)\n`);
      context.io.stdout.write(
        `${result.verified.length + result.restored.length} vendored skills match skills-lock.json (${result.restored.length} restored)\n`,
      );
    }
    return exitCodes.ok;
  },
};
