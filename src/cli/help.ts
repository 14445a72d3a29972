import type { Command } from './context.js';

/** The top-level help: names and summaries only, so no command's module is loaded for it. */
export function renderHelp(commands: readonly Pick<Command, 'name' | 'summary'>[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'skillgarden — a Git-backed store for agent skills, with a curator',
    '',
    'usage: skillgarden [--repo DIR] [--now ISO-8601] [--json] <command> [options]',
    '  --repo DIR: run as if started in DIR, as `git -C DIR` does: every relative path resolves against it',
    '',
    'commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "where skills are found: skills/, the agents' folders (.claude/skills, .agents/skills, …), a Claude Code marketplace",
    '(.claude-plugin/marketplace.json) and plugin.json manifests, detected; or skills_dir in .skillgarden/config.yaml:',
    '  a folder, a glob or a list, e.g. skills_dir: ["skills", "plugins/*/skills"]. `skillgarden init` writes what it detects.',
    '  Every command reads the same skills; one that finds none exits 2 and says where it looked (--allow-empty: a new library).',
    '',
    'exit codes: 0 success, 1 findings or refusals, 2 bad usage or an operational failure',
    "run `skillgarden <command> --help` for a command's options",
    '',
  ].join('\n');
}

export function renderCommandHelp(command: Command): string {
  return `usage: skillgarden ${command.usage}\n\n${command.summary}\n\nglobal options: --repo DIR, --now ISO-8601, --json\n`;
}
