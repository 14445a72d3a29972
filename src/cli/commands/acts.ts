import { SkillgardenError } from '../../core/errors.js';
import {
  adoptSkill,
  archiveSkill,
  pinSkill,
  restoreSkill,
  unpinSkill,
  type ManageContext,
  type ManageResult,
} from '../../services/manage/index.js';
import { exitCodes, type Command } from '../context.js';
import { openManageContext } from '../open-repo.js';
import { renderManageResult } from '../render-result.js';

type Act = (ctx: ManageContext, name: string, from: string | undefined) => Promise<ManageResult>;

/** A person's lifecycle act on one skill: one command, one commit. */
function actCommand(name: string, summary: string, act: Act, extra = ''): Command {
  return {
    name,
    summary,
    usage: `${name} NAME${extra} [--message TEXT]`,
    options: { message: { type: 'string' }, ...(extra ? { from: { type: 'string' } } : {}) },
    async run(context) {
      const [skill, ...rest] = context.positionals;
      if (!skill || rest.length > 0) throw new SkillgardenError('cli/usage', `${name} takes exactly one skill name`);
      const ctx = await openManageContext(context, { actor: 'user' });
      try {
        const from = typeof context.values.from === 'string' ? context.values.from : undefined;
        const result = await act({ ...ctx, now: context.global.now } as ManageContext, skill, from);
        context.io.stdout.write(context.global.json ? `${JSON.stringify(result, null, 2)}\n` : renderManageResult(result));
        return exitCodes.ok;
      } finally {
        await ctx.ledger.close();
      }
    },
  };
}

export const actCommands: Command[] = [
  actCommand('pin', 'pin a skill: the curator and agents leave it alone', (ctx, name) => pinSkill(ctx, { name })),
  actCommand('unpin', 'unpin a skill', (ctx, name) => unpinSkill(ctx, { name })),
  actCommand('adopt', "bring a person's skill under the curator's management", (ctx, name) => adoptSkill(ctx, { name })),
  actCommand('archive', 'move a skill, whole, to skills/.archive/', (ctx, name) => archiveSkill(ctx, { name })),
  actCommand(
    'restore',
    'bring an archived skill back, by its exact name',
    (ctx, name, from) => restoreSkill(ctx, { name, ...(from ? { from } : {}) }),
    ' [--from ARCHIVE-PATH]',
  ),
];
