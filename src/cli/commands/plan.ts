import { renderPlansMarkdown, renderPlansText } from '../../core/consolidate/index.js';
import { SkillgardenError } from '../../core/errors.js';
import { readChatClientOptions } from '../../llm/chat-client.js';
import { planLibrary } from '../../services/consolidate/index.js';
import { exitCodes, type Command } from '../context.js';

export const planCommand: Command = {
  name: 'plan',
  summary: 'consolidation plans (umbrella skills) for the curated skills, shown, never applied',
  usage: 'plan [--json] [--markdown] [--llm]   (--llm: SKILLGARDEN_LLM_BASE_URL, SKILLGARDEN_LLM_MODEL, SKILLGARDEN_LLM_API_KEY)',
  options: { markdown: { type: 'boolean' }, llm: { type: 'boolean' } },
  async run(context) {
    if (context.positionals.length > 0)
      throw new SkillgardenError('cli/usage', `plan takes no arguments (got ${context.positionals.join(' ')})`);
    const llm = context.values.llm === true ? readChatClientOptions(context.io.env) : undefined;
    if (context.values.llm === true && !llm)
      throw new SkillgardenError(
        'cli/usage',
        '--llm needs SKILLGARDEN_LLM_BASE_URL and SKILLGARDEN_LLM_MODEL (and SKILLGARDEN_LLM_API_KEY if the endpoint wants one)',
      );
    const { report, findings } = await planLibrary(context.global.repo, { now: context.global.now, ...(llm ? { llm } : {}) });
    const out = context.global.json
      ? `${JSON.stringify(report, null, 2)}\n`
      : context.values.markdown === true
        ? renderPlansMarkdown(report)
        : renderPlansText(report);
    context.io.stdout.write(out);
    for (const f of findings) context.io.stderr.write(`${f.file}: ${f.message} (${f.hint})\n`);
    return exitCodes.ok;
  },
};
