import { SkillgardenError } from '../../core/errors.js';
import { addVendored } from '../../services/vendor/add.js';
import { exitCodes, type Command } from '../context.js';
import { openManageContext } from '../open-repo.js';
import { renderManageResult } from '../render-result.js';

export const addCommand: Command = {
  name: 'add',
  summary: 'copy skills from a git repository into the library, pinned in skills-lock.json (one commit)',
  usage: 'add SOURCE [--skill NAME]... [--ref REF] [--root DIR] [--message TEXT]   (SOURCE: a git URL, a local path, or owner/repo)',
  options: { skill: { type: 'string', multiple: true }, ref: { type: 'string' }, root: { type: 'string' }, message: { type: 'string' } },
  async run(context) {
    const [source, ...rest] = context.positionals;
    if (!source || rest.length > 0)
      throw new SkillgardenError('cli/usage', 'add takes exactly one SOURCE: a git URL, a local path, or owner/repo');
    const text = (key: string) => (typeof context.values[key] === 'string' ? context.values[key] : undefined);
    const skills = ((context.values.skill as string[] | undefined) ?? []).filter((s) => typeof s === 'string');
    const ref = text('ref');
    const root = text('root');
    const ctx = await openManageContext(context, { actor: 'user' });
    try {
      const result = await addVendored(ctx, {
        source,
        skills,
        ...(ref ? { ref } : {}),
        ...(root !== undefined ? { root } : {}),
        cwd: context.global.repo,
        now: context.global.now,
      });
      if (context.global.json) context.io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      else {
        context.io.stdout.write(renderManageResult(result));
        for (const a of result.added)
          context.io.stdout.write(
            `  ${a.name}: ${a.dir} ← ${a.skillPath} @ ${a.commit.slice(0, 12)} sha256 ${a.computedHash.slice(0, 16)}…\n`,
          );
      }
      return exitCodes.ok;
    } finally {
      await ctx.ledger.close();
    }
  },
};
