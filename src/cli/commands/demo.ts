import { runDemo } from '../../services/demo/run-demo.js';
import { exitCodes, type Command } from '../context.js';

export const demoCommand: Command = {
  name: 'demo',
  summary: 'the main job on a bundled demo library, in a temporary repository (embedded Git, no server)',
  usage: 'demo [--dir DIR]',
  options: { dir: { type: 'string' } },
  async run({ io, global, values }) {
    const result = await runDemo({
      now: global.now,
      ...(typeof values.dir === 'string' ? { dir: values.dir } : {}),
      onStep: global.json ? undefined : (line) => io.stderr.write(`• ${line}\n`),
    });
    if (global.json) {
      io.stdout.write(`${JSON.stringify({ dir: result.dir, reports: result.reports }, null, 2)}\n`);
      return exitCodes.ok;
    }
    io.stdout.write(`${result.markdown}\n## The ledger (newest first)\n\n${result.log}\n`);
    io.stdout.write(
      `The demo repository is at ${result.dir}\nExplore it: cd ${result.dir} && git log --stat, npx skillgarden list --repo ${result.dir}, npx skillgarden rollback --repo ${result.dir} --run ${result.reports.at(-1)?.run_id}\n`,
    );
    return exitCodes.ok;
  },
};
