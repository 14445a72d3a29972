import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('the skillgarden binary', () => {
  it('validates the bundled library from the repository root, as `npx skillgarden validate` does', async () => {
    const { stdout } = await run(process.execPath, [join(repoRoot, 'bin', 'skillgarden.js'), 'validate', '--profile', 'spec', '--json'], {
      cwd: repoRoot,
    });
    const report = JSON.parse(stdout);
    expect(report.skills).toBeGreaterThanOrEqual(4);
    expect(report.findings).toEqual([]);
  });

  it("prints package.json's version", async () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const { stdout } = await run(process.execPath, [join(repoRoot, 'bin', 'skillgarden.js'), '--version'], { cwd: repoRoot });
    expect(stdout).toBe(`skillgarden ${version}\n`);
  });

  it('exits 2 and says why on bad usage', async () => {
    const failure = await run(process.execPath, [join(repoRoot, 'bin', 'skillgarden.js'), 'validate', '--profile', 'nope'], {
      cwd: repoRoot,
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr: string }).stderr).toContain('unknown profile "nope"');
  });
});
