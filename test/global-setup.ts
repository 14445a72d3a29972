import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCli } from '../scripts/build-cli.js';

/**
 * Tests that spawn `bin/skillgarden.js` (as a user or a runner would) need
 * lib/ (and the CLI bundle in lib/bundle/cli/) to match src/: build once before the suite.
 */
export default async function setup(): Promise<void> {
  // A developer running one test file that never spawns the CLI may skip the build (about 30 s of CPU);
  // CI never sets this.
  if (process.env.SKILLGARDEN_TEST_SKIP_BUILD === '1') return;
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  // bin/skillgarden.js runs the bundle made from src/ (scripts/build-cli.ts).
  await buildCli();
}
