import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { describeSystemError, isSkillgardenError, SkillgardenError } from '../core/errors.js';
import { commands } from './commands/index.js';
import { exitCodes, type CliIo, type Command, type GlobalOptions, type OptionSpec } from './context.js';
import { readPackageVersion } from '../version.js';
import { renderCommandHelp, renderHelp } from './help.js';

const globalOptions: Record<string, OptionSpec> = {
  repo: { type: 'string' },
  now: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
};

/** Operational errors that are really refusals: the tool worked and said no (exit 1, not 2). */
const refusalCodes = new Set(['ledger/rollback-refused', 'ledger/dirty', 'ledger/conflict', 'ledger/bad-path', 'scan/blocked']);

/** Runs one command line and returns its exit code. Never exits the process itself. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const { name, index } = findCommandName(argv);
  const entry = commands.find((c) => c.name === name);
  let command: Command | undefined;
  try {
    if (!entry) return showTopLevel(argv, name, io);
    // Only now is the command's module (and what it uses) loaded.
    command = await entry.load();
    const parsed = parseArgs({
      args: [...argv.slice(0, index), ...argv.slice(index + 1)],
      options: { ...globalOptions, ...command.options },
      allowPositionals: true,
      strict: true,
    });
    if (parsed.values.help) {
      io.stdout.write(renderCommandHelp(command));
      return exitCodes.ok;
    }
    const global = readGlobals(parsed.values, io);
    return await command.run({ io, global, positionals: parsed.positionals, values: parsed.values });
  } catch (error) {
    return reportError(error, io, command);
  }
}

/** The command is the first positional argument once global options (which take values) are set aside. */
function findCommandName(argv: readonly string[]): { name: string | undefined; index: number } {
  const { tokens } = parseArgs({ args: [...argv], options: globalOptions, strict: false, allowPositionals: true, tokens: true });
  const first = tokens.find((token) => token.kind === 'positional');
  return first ? { name: first.value, index: first.index } : { name: undefined, index: -1 };
}

function showTopLevel(argv: readonly string[], name: string | undefined, io: CliIo): number {
  if (argv.includes('--version')) {
    io.stdout.write(`skillgarden ${readPackageVersion()}\n`);
    return exitCodes.ok;
  }
  if (name === undefined || name === 'help') {
    io.stdout.write(renderHelp(commands));
    return name === undefined && !argv.includes('--help') && !argv.includes('-h') ? exitCodes.failure : exitCodes.ok;
  }
  io.stderr.write(`skillgarden: unknown command "${name}"\n\n${renderHelp(commands)}`);
  return exitCodes.failure;
}

function readGlobals(values: Record<string, unknown>, io: CliIo): GlobalOptions {
  const nowText = (values.now as string | undefined) ?? io.env.SKILLGARDEN_NOW;
  const now = nowText === undefined ? new Date() : new Date(nowText);
  if (Number.isNaN(now.getTime())) {
    throw new SkillgardenError('cli/usage', `--now "${nowText}" is not an ISO-8601 time; use e.g. 2026-11-29T23:00:00Z`);
  }
  return { repo: resolve(io.cwd, (values.repo as string | undefined) ?? '.'), now, json: values.json === true };
}

function reportError(error: unknown, io: CliIo, command: Command | undefined): number {
  const fault = describeSystemError(error);
  if (isSkillgardenError(error)) {
    io.stderr.write(`skillgarden: ${error.message}\n${fault ? `skillgarden: ${fault}\n` : ''}`);
    if (error.code === 'cli/usage' && command) io.stderr.write(`usage: skillgarden ${command.usage}\n`);
    if (typeof error.data.exitCode === 'number') return error.data.exitCode;
    return refusalCodes.has(error.code) ? exitCodes.findings : exitCodes.failure;
  }
  const code = (error as { code?: string }).code;
  if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
    io.stderr.write(`skillgarden: ${(error as Error).message}\n`);
    if (command) io.stderr.write(`usage: skillgarden ${command.usage}\n`);
    return exitCodes.failure;
  }
  if (fault) {
    io.stderr.write(`skillgarden: ${fault}\n`);
    return exitCodes.failure;
  }
  io.stderr.write(`skillgarden: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return exitCodes.failure;
}

/** The process entry: the only place that touches process.argv and the exit code. */
export async function runMain(): Promise<void> {
  process.exitCode = await runCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    interactive: Boolean(process.stderr.isTTY),
    // A getter: reading process.stdin sets up its stream (about 5 ms), and only a few commands read it.
    get stdin() {
      return process.stdin;
    },
  });
}
