import { SkillgardenError } from '../../core/errors.js';
import { openLibrary, requireSkills } from '../../services/library.js';
import { renderScanText } from '../../core/scan/index.js';
import { readConfig } from '../../services/curator/read-library.js';
import { runScan } from '../../services/scan.js';
import { exitCodes, type Command } from '../context.js';

export const scanCommand: Command = {
  name: 'scan',
  summary: 'the security scan alone: exfiltration, injection, destructive commands, invisible Unicode, structure',
  usage: 'scan [PATH…] [--no-cache] [--allow-empty]',
  options: { 'allow-empty': { type: 'boolean' }, 'no-cache': { type: 'boolean' } },
  async run({ io, global, positionals, values }) {
    const { config } = readConfig(global.repo);
    const allowEmpty = values['allow-empty'] === true;
    // The library's one discovery when no path is given; paths resolve against --repo, as `git -C` does.
    const library = positionals.length > 0 ? undefined : requireSkills(openLibrary(global.repo, config.skills_dir), { allowEmpty });
    const report = await runScan(positionals, {
      repo: global.repo,
      config: config.scan,
      deep: positionals.length > 0,
      persistCache: values['no-cache'] !== true,
      ...(library ? { library } : {}),
    });
    if (report.skills === 0 && !allowEmpty) {
      throw new SkillgardenError('library/empty', `no skills under ${positionals.join(', ')}. Pass --allow-empty to accept that.`, {
        data: { exitCode: 2 },
      });
    }
    io.stdout.write(global.json ? `${JSON.stringify(report, null, 2)}\n` : renderScanText(report));
    return Object.values(report.verdicts).includes('dangerous') ? exitCodes.findings : exitCodes.ok;
  },
};
