import { readLibraryRoots } from '../../services/library.js';
import { SkillgardenError } from '../../core/errors.js';
import { renderLogText } from '../../core/ledger/render-log.js';
import { actors, skillActions, type Actor, type SkillAction } from '../../core/ledger/trailers.js';
import { readLog } from '../../services/history.js';
import { requireConfig } from '../../services/curator/read-library.js';
import { exitCodes, type Command } from '../context.js';

export const logCommand: Command = {
  name: 'log',
  summary: 'the ledger, read from Git (newest first): commits with trailers or touching a skill (--all: every commit)',
  usage: 'log [--skill NAME] [--actor user|agent|curator] [--action ACTION] [--run ID] [--limit N] [--all]',
  options: {
    skill: { type: 'string' },
    actor: { type: 'string' },
    action: { type: 'string' },
    run: { type: 'string' },
    limit: { type: 'string' },
    all: { type: 'boolean' },
  },
  async run({ io, global, values, positionals }) {
    if (positionals.length > 0) throw new SkillgardenError('cli/usage', `log takes no arguments; filter with --skill NAME`);
    const actor = values.actor as string | undefined;
    const action = values.action as string | undefined;
    if (actor !== undefined && !(actors as readonly string[]).includes(actor))
      throw new SkillgardenError('cli/usage', `--actor "${actor}" is not one of: ${actors.join(', ')}`);
    if (action !== undefined && !(skillActions as readonly string[]).includes(action))
      throw new SkillgardenError('cli/usage', `--action "${action}" is not one of: ${skillActions.join(', ')}`);
    const limit = values.limit === undefined ? undefined : Number(values.limit);
    if (limit !== undefined && (!Number.isInteger(limit) || limit <= 0))
      throw new SkillgardenError('cli/usage', `--limit must be a positive whole number`);
    const entries = await readLog(global.repo, {
      skillsRoot: readLibraryRoots(global.repo, requireConfig(global.repo).skills_dir),
      ...(values.all === true ? { all: true } : {}),
      ...(typeof values.skill === 'string' ? { skill: values.skill } : {}),
      ...(actor ? { actor: actor as Actor } : {}),
      ...(action ? { action: action as SkillAction } : {}),
      ...(typeof values.run === 'string' ? { run: values.run } : {}),
      ...(limit ? { limit } : {}),
    });
    io.stdout.write(global.json ? `${JSON.stringify({ entries }, null, 2)}\n` : renderLogText(entries));
    return exitCodes.ok;
  },
};
