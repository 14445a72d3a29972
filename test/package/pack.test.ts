import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp.js';

const run = promisify(execFile);
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The package as a user gets it: `npm pack` (lib/ is built by the suite's global setup), unpacked into a temporary
 * project's node_modules. `npm install --offline` of the tarball cannot run here (the machine's npm cache does not
 * hold the dependencies: ENOTCACHED), so the project links the dependencies from this checkout's node_modules and
 * links the `bin` the way npm does; everything else — which files the tarball carries, `exports`, the bin — is the
 * package's own.
 */
async function installPacked(): Promise<string> {
  const project = tempDir('skillgarden-pack-');
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], { cwd: repoRoot });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  const installed = join(project, 'node_modules', 'skillgarden');
  mkdirSync(installed, { recursive: true });
  await run('tar', ['-xzf', join(project, filename), '-C', installed, '--strip-components=1']);
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    bin: Record<string, string>;
  };
  for (const name of Object.keys(manifest.dependencies)) {
    mkdirSync(dirname(join(project, 'node_modules', name)), { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules', name), join(project, 'node_modules', name), 'dir');
  }
  mkdirSync(join(project, 'node_modules', '.bin'));
  for (const [bin, path] of Object.entries(manifest.bin))
    symlinkSync(join('..', 'skillgarden', path), join(project, 'node_modules', '.bin', bin));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'uses-skillgarden', private: true, type: 'module' }));
  return project;
}

describe('the packed package', () => {
  it('imports the public API by package name and runs the binary with npx', async () => {
    const project = await installPacked();
    writeFileSync(
      join(project, 'probe.mjs'),
      [
        "import * as api from 'skillgarden';",
        "const names = ['SkillRegistry', 'runCurator', 'CuratorRunner', 'openLedger', 'createSkill', 'runValidate', 'runScan', 'readTranscriptFiles', 'minePatterns', 'planLibrary'];",
        'console.log(JSON.stringify(Object.fromEntries(names.map((n) => [n, typeof api[n]]))));',
        "const v = api.validateSkill({ file: 'demo/SKILL.md', folder: 'demo', content: '---\\nname: other\\ndescription: x\\n---\\nbody\\n' });",
        'console.log(JSON.stringify(v.findings.map((f) => f.code)));',
      ].join('\n'),
    );
    const probe = await run(process.execPath, ['probe.mjs'], { cwd: project });
    const [types, codes] = probe.stdout.trim().split('\n');
    expect(Object.values(JSON.parse(types ?? '{}') as Record<string, string>)).toEqual(Array(10).fill('function'));
    expect(JSON.parse(codes ?? '[]')).toContain('skill/name-mismatch');
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const npx = await run('npx', ['--no-install', 'skillgarden', '--version'], { cwd: project });
    expect(npx.stdout).toBe(`skillgarden ${version}\n`);
  });
});
