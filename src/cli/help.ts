import type { Command } from './context.js';

/** The top-level help: names and summaries only, so no command's module is loaded for it. */
export function renderHelp(commands: readonly Pick<Command, 'name' | 'summary'>[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'skillgarden — a Git-backed store for agent skills, with a curator',
    '',
    'usage: skillgarden [--repo DIR] [--now ISO-8601] [--json] <command> [options]',
    '',
    'commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'exit codes: 0 success, 1 findings or refusals, 2 bad usage or an operational failure',
    "run `skillgarden <command> --help` for a command's options",
    '',
  ].join('\n');
}

export function renderCommandHelp(command: Command): string {
  return `usage: skillgarden ${command.usage}\n\n${command.summary}\n\nglobal options: --repo DIR, --now ISO-8601, --json\n`;
}
