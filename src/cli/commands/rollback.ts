import picomatch from 'picomatch';
import { SkillgardenError } from '../../core/errors.js';
import { requireConfig } from '../../services/curator/read-library.js';
import { exitCodes, type Command } from '../context.js';
import { openRepoLedger } from '../open-repo.js';
import { readLibraryRoots } from '../../services/library.js';

export const rollbackCommand: Command = {
  name: 'rollback',
  summary: 'fail-closed revert of one commit, or of every commit of a curator run, as one commit',
  usage: 'rollback COMMIT | rollback --run ID',
  options: { run: { type: 'string' } },
  async run(context) {
    const run = typeof context.values.run === 'string' ? context.values.run : undefined;
    const [commit, ...rest] = context.positionals;
    if ((run === undefined) === (commit === undefined) || rest.length > 0) {
      throw new SkillgardenError('cli/usage', 'give exactly one of COMMIT or --run ID');
    }
    const ledger = await openRepoLedger(context);
    try {
      const target = run !== undefined ? { run } : { commit: await ledger.resolve(commit as string) };
      const config = requireConfig(context.global.repo);
      const references = config.references.length > 0 ? picomatch(config.references, { dot: true }) : undefined;
      const result = await ledger.rollback(target, {
        skillsRoot: readLibraryRoots(context.global.repo, config.skills_dir),
        ...(references ? { allowPath: (path: string) => references(path) } : {}),
      });
      if (context.global.json) context.io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      else if (result.status === 'noop')
        context.io.stdout.write(
          `nothing to roll back: ${result.reverted.map((c) => c.slice(0, 12)).join(', ') || 'no commits'} already reverted\n`,
        );
      else
        context.io.stdout.write(
          `rolled back ${result.reverted.length} commit(s) in ${result.commit.slice(0, 12)}: ${result.files.length} file(s) restored${(result.moved ?? []).map((m) => `, ${m.from} moved back to ${m.to}`).join('')}\n`,
        );
      return exitCodes.ok;
    } finally {
      await ledger.close();
    }
  },
};
