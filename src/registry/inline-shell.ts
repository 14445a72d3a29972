import { execFile } from 'node:child_process';
import { findInlineShell, replaceInlineShell } from '../core/registry/load-content.js';

export interface InlineShellOptions {
  /** Off unless a host asks for it: a skill's text must not run commands by default. */
  enabled: boolean;
  timeoutMs?: number;
  maxOutputBytes?: number;
}

const defaultTimeoutMs = 5_000;
const defaultMaxOutputBytes = 64 * 1024;

/** Replaces each `` !`command` `` with its output (run by /bin/sh in `cwd`), bounded in time and size. */
export async function runInlineShell(body: string, cwd: string, options: InlineShellOptions): Promise<string> {
  if (!options.enabled) return body;
  const spans = findInlineShell(body);
  if (spans.length === 0) return body;
  const outputs: string[] = [];
  // One after the other: commands in a skill may depend on each other's effects.
  for (const span of spans) outputs.push(await runOne(span.command, cwd, options));
  return replaceInlineShell(body, spans, outputs);
}

function runOne(command: string, cwd: string, options: InlineShellOptions): Promise<string> {
  const timeout = options.timeoutMs ?? defaultTimeoutMs;
  const maxBuffer = options.maxOutputBytes ?? defaultMaxOutputBytes;
  return new Promise((resolve) => {
    execFile('/bin/sh', ['-c', command], { cwd, timeout, maxBuffer, killSignal: 'SIGKILL', encoding: 'utf8' }, (error, stdout) => {
      if (!error) return resolve(stdout.trimEnd());
      const failure = error as NodeJS.ErrnoException & { killed?: boolean; code?: unknown };
      if (failure.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
        return resolve(`${stdout.slice(0, maxBuffer)}\n[output cut at ${maxBuffer} bytes]`);
      if (failure.killed) return resolve(`[\`${command}\` stopped after ${timeout} ms]`);
      resolve(`[\`${command}\` failed: ${error.message.split('\n')[0]}]`);
    });
  });
}
