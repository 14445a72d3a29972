import { renderPlansMarkdown, renderPlansText } from '../../core/consolidate/index.js';
import { SkillgardenError } from '../../core/errors.js';
import { planLibrary } from '../../services/consolidate/index.js';
import { exitCodes, type Command } from '../context.js';

export const planCommand: Command = {
  name: 'plan',
  summary: 'consolidation plans (umbrella skills) for the curated skills, shown, never applied',
  usage: 'plan [--json] [--markdown]',
  options: { markdown: { type: 'boolean' } },
  async run(context) {
    if (context.positionals.length > 0) throw new SkillgardenError('cli/usage', `plan takes no arguments (got ${context.positionals.join(' ')})`);
    const { report } = await planLibrary(context.global.repo, { now: context.global.now });
    const out = context.global.json ? `${JSON.stringify(report, null, 2)}\n` : context.values.markdown === true ? renderPlansMarkdown(report) : renderPlansText(report);
    context.io.stdout.write(out);
    return exitCodes.ok;
  },
};
