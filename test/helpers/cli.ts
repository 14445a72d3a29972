import { runCli } from '../../src/cli/main.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with captured output, as a user in `cwd` would. */
export async function cli(argv: string[], options: { cwd: string; env?: Record<string, string>; interactive?: boolean }): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (chunk: string | Uint8Array) => ((stdout += String(chunk)), true) },
    stderr: { write: (chunk: string | Uint8Array) => ((stderr += String(chunk)), true) },
    env: options.env ?? {},
    cwd: options.cwd,
    interactive: options.interactive ?? false,
  });
  return { code, stdout, stderr };
}
