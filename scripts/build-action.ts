/**
 * Bundles the Action's entry (src/action/main.ts) into dist/index.js, the
 * file action.yml runs and the repository commits. ESM; the banner gives
 * CommonJS dependencies the `require` they expect. Run: `npm run build:action`.
 */
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');

export async function buildAction(outfile = join(root, 'dist', 'index.js')): Promise<void> {
  await build({
    entryPoints: [join(root, 'src', 'action', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    legalComments: 'none',
    logLevel: 'warning',
    // The bundle runs wherever the runner put it (tests copy it to a temporary folder): the version travels inside it.
    define: {
      __SKILLGARDEN_VERSION__: JSON.stringify(
        (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version,
      ),
    },
    banner: { js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);" },
  });
}

if (process.argv[1] === import.meta.filename) await buildAction(process.argv[2]);
