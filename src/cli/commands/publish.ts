import { resolve } from 'node:path';
import { SkillgardenError } from '../../core/errors.js';
import { renderFindingsText } from '../../core/report/render-findings.js';
import { requireConfig } from '../../services/config-file.js';
import { publishLibrary } from '../../services/publish/publish.js';
import { exitCodes, type Command } from '../context.js';
import { openRepoLedger } from '../open-repo.js';

export const publishCommand: Command = {
  name: 'publish',
  summary: 'write the Agent Skills discovery index (.well-known/agent-skills/index.json) and its artifacts, for installers',
  usage: 'publish --out DIR [--marketplace NAME --owner NAME] [--agent-plugin NAME [--owner NAME]]',
  options: { out: { type: 'string' }, marketplace: { type: 'string' }, owner: { type: 'string' }, 'agent-plugin': { type: 'string' } },
  async run(context) {
    const { io, global, values } = context;
    if (typeof values.out !== 'string') throw new SkillgardenError('cli/usage', 'publish needs --out DIR: the folder a static site serves');
    const agentPlugin = values['agent-plugin'];
    if (typeof values.marketplace === 'string' && typeof values.owner !== 'string') {
      throw new SkillgardenError('cli/usage', '--marketplace NAME needs --owner NAME (a Claude Code marketplace names both)');
    }
    if (typeof values.owner === 'string' && typeof values.marketplace !== 'string' && typeof agentPlugin !== 'string') {
      throw new SkillgardenError(
        'cli/usage',
        '--owner NAME names the owner of a --marketplace or the author of an --agent-plugin: add one of them',
      );
    }
    const config = requireConfig(global.repo);
    const ledger = await openRepoLedger(context);
    try {
      const result = await publishLibrary({
        repoDir: global.repo,
        skillsDir: config.skills_dir,
        ledger,
        out: resolve(global.repo, values.out),
        ...(typeof values.marketplace === 'string' ? { marketplace: { name: values.marketplace, owner: values.owner as string } } : {}),
        ...(typeof agentPlugin === 'string'
          ? { agentPlugin: { name: agentPlugin, ...(typeof values.owner === 'string' ? { owner: values.owner } : {}) } }
          : {}),
      });
      if (!result.ok) {
        io.stderr.write('nothing published: fix these errors first\n');
        io.stdout.write(renderFindingsText(result.findings, { skills: result.checked, errors: result.findings.length, warnings: 0 }));
        return exitCodes.findings;
      }
      if (global.json) io.stdout.write(`${JSON.stringify({ index: result.index, skills: result.skills }, null, 2)}\n`);
      else {
        for (const s of result.skills) io.stdout.write(`${s.name} ${s.version} ${s.type} ${s.digest.slice(0, 19)}…\n`);
        io.stdout.write(`published ${result.skills.length} skill(s) to ${values.out}\n`);
      }
      return exitCodes.ok;
    } finally {
      await ledger.close();
    }
  },
};
