/**
 * Bundles the CLI (src/cli/main.ts and everything it imports, dependencies
 * included) into lib/bundle/cli/, the code bin/skillgarden.js runs. One file
 * per command group (esbuild's code splitting keeps each `await import()` of
 * src/cli/commands/index.ts a chunk of its own), so a process reads a few
 * files instead of ~250 modules and yaml's ~80: `validate` of one skill
 * started in about 0.15 s of module loading instead of 0.6–1.0 s.
 * lib/bundle/cli/ sits three folders below the package root, as lib/services/demo/
 * does: src/services/demo/run-demo.ts finds the bundled skills/ at ../../../ from itself.
 * Run by `npm run build` after tsc, and by test/global-setup.ts.
 */
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
export const cliBundleDir = join(root, 'lib', 'bundle', 'cli');

export async function buildCli(outdir = cliBundleDir): Promise<void> {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: { main: join(root, 'src', 'cli', 'main.ts') },
    outdir,
    bundle: true,
    splitting: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: true,
    legalComments: 'none',
    logLevel: 'warning',
    // CommonJS dependencies bundled into ESM still call require() for Node's built-ins.
    banner: { js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);" },
  });
}

if (process.argv[1] === import.meta.filename) await buildCli(process.argv[2]);
