import type { Writable } from 'node:stream';

/** What a command may touch of the outside world: injected, so tests run commands in-process. */
export interface CliIo {
  stdout: Pick<Writable, 'write'>;
  stderr: Pick<Writable, 'write'>;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** True when stderr is a terminal a person watches (progress is shown only then). */
  interactive: boolean;
  stdin?: NodeJS.ReadableStream;
}

/** Global options every command understands (DESIGN §12). */
export interface GlobalOptions {
  /** The repository root (default: the current directory). */
  repo: string;
  /** The clock, for reproducible runs. */
  now: Date;
  json: boolean;
}

export interface CommandContext {
  io: CliIo;
  global: GlobalOptions;
  /** Positional arguments after the command name. */
  positionals: string[];
  /** The command's own parsed options. */
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
}

export type OptionSpec = { type: 'string' | 'boolean'; short?: string; multiple?: boolean; default?: string | boolean };

export interface Command {
  name: string;
  summary: string;
  usage: string;
  options: Record<string, OptionSpec>;
  run(context: CommandContext): Promise<number>;
}

/** Exit codes (DESIGN §12). */
export const exitCodes = { ok: 0, findings: 1, failure: 2 } as const;
