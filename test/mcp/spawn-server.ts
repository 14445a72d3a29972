import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = join(import.meta.dirname, '..', '..');

/**
 * Runs `skillgarden mcp` as a client would: `node bin/skillgarden.js mcp`
 * once the command is registered in the CLI, else the same command object
 * from the built lib/ driven by a two-line launcher (until then).
 */
async function launchArgs(): Promise<string[]> {
  const index = join(root, 'lib', 'cli', 'commands', 'index.js');
  const { commands } = (await import(index)) as { commands: { name: string }[] };
  if (commands.some((c) => c.name === 'mcp')) return [join(root, 'bin', 'skillgarden.js'), 'mcp'];
  const runtime = join(root, 'lib', 'cli', 'commands', 'runtime.js');
  if (!existsSync(runtime)) throw new Error(`${runtime} is missing: the global setup builds lib/`);
  const launcher = [
    `const { mcpCommand } = await import(${JSON.stringify(runtime)});`,
    'process.exitCode = await mcpCommand.run({ io: { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), interactive: false, stdin: process.stdin }, global: { repo: process.cwd(), now: new Date(), json: false }, positionals: [], values: {} });',
  ].join('\n');
  return ['--input-type=module', '-e', launcher];
}

export async function connectClient(repoDir: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: await launchArgs(),
    cwd: repoDir,
    env: { PATH: process.env.PATH ?? '', HOME: repoDir, SKILLGARDEN_WRITER: 'test-agent' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'skillgarden-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}
