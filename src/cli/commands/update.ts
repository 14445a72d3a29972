import { updateVendored, type UpdateResult } from '../../services/vendor/update.js';
import { exitCodes, type Command } from '../context.js';
import { openManageContext } from '../open-repo.js';
import { renderManageResult } from '../render-result.js';

export const updateCommand: Command = {
  name: 'update',
  summary: 'bring vendored skills up to their source (three-way merge, one commit each); --check lists those behind',
  usage: 'update [NAME...] [--check]   (--check: exit 1 when a vendored skill is behind its source; writes nothing)',
  options: { check: { type: 'boolean' } },
  async run(context) {
    const check = context.values.check === true;
    const ctx = await openManageContext(context, { actor: 'user' });
    try {
      const result = await updateVendored(ctx, { names: context.positionals, check, now: context.global.now });
      context.io.stdout.write(context.global.json ? `${JSON.stringify(result, null, 2)}\n` : renderUpdate(result, check));
      return check && result.skills.some((s) => s.behind) ? exitCodes.findings : exitCodes.ok;
    } finally {
      await ctx.ledger.close();
    }
  },
};

function renderUpdate(result: UpdateResult, check: boolean): string {
  const behind = result.skills.filter((s) => s.behind);
  const lines: string[] = [];
  if (check) {
    for (const s of behind) {
      lines.push(
        `${s.name}: behind ${s.source} (${s.from.slice(0, 12)}..${s.to.slice(0, 12)}, ${s.commits.length} upstream commit${s.commits.length === 1 ? '' : 's'})`,
      );
      for (const c of s.commits) lines.push(`  ${c}`);
    }
  }
  const text = result.applied.map(renderManageResult).join('');
  lines.push(
    `${behind.length} of ${result.skills.length} vendored skills behind their source${check ? '' : `; ${result.applied.length} updated`}`,
  );
  return `${text}${lines.join('\n')}\n`;
}
