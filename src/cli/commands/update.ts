import { updateVendored, type UpdateResult } from '../../services/vendor/update.js';
import { exitCodes, type Command } from '../context.js';
import { openManageContext } from '../open-repo.js';
import { renderManageResult } from '../render-result.js';

export const updateCommand: Command = {
  name: 'update',
  summary: 'bring vendored skills up to their source (three-way merge, one commit each); --check lists those behind',
  usage:
    'update [NAME...] [--check]   (--check: exit 1 when a vendored skill is behind its source; writes nothing. A conflict writes nothing here: it is proposed on skillgarden/update/<name>, exit 1)',
  options: { check: { type: 'boolean' } },
  async run(context) {
    const check = context.values.check === true;
    const ctx = await openManageContext(context, { actor: 'user' });
    try {
      const result = await updateVendored(ctx, { names: context.positionals, check, now: context.global.now });
      context.io.stdout.write(context.global.json ? `${JSON.stringify(result, null, 2)}\n` : renderUpdate(result, check));
      if (!context.global.json) context.io.stderr.write(renderProposed(result));
      // A conflict is not an error, but the update is not done: a script or CI sees it.
      return (check && result.skills.some((s) => s.behind)) || result.proposed.length > 0 ? exitCodes.findings : exitCodes.ok;
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
    `${behind.length} of ${result.skills.length} vendored skills behind their source${check ? '' : `; ${result.applied.length} updated${result.proposed.length > 0 ? `, ${result.proposed.length} proposed with conflicts` : ''}`}`,
  );
  return `${text}${lines.join('\n')}\n`;
}

/** Each conflicted skill: its files and lines, and the branch its merge waits on (exit 1). */
function renderProposed(result: UpdateResult): string {
  return result.proposed
    .map((p) => {
      const where =
        p.operation === 'declined'
          ? `this exact update was declined on ${p.branch}; it is not proposed again`
          : p.operation === 'edited'
            ? `${p.branch} has commits by someone else: left as it is`
            : `the merge with its conflict markers is on ${p.branch} (${p.operation}): resolve it there and merge, or \`skillgarden proposals decline ${p.branch}\``;
      const files = p.conflicts.map((c) => `  ${c.file}: ${c.reason}`).join('\n');
      return `${p.name}: the library and the source changed the same lines; nothing was written on this branch:\n${files}\n  ${where}\n`;
    })
    .join('');
}
