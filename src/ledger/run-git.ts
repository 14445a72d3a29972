import { spawn } from 'node:child_process';
import { SkillgardenError } from '../core/errors.js';

export interface RunGitOptions {
  input?: Uint8Array | string;
  env?: Record<string, string>;
  cwd?: string;
}

/** Every system-git call goes through here: one place for the environment and for errors. */
export function runGit(gitdir: string, args: readonly string[], options: RunGitOptions = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--git-dir', gitdir, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env, GIT_TERMINAL_PROMPT: '0' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => reject(gitFailed(args, error.message, error)));
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else reject(gitFailed(args, Buffer.concat(err).toString('utf8').trim() || `exit code ${code}`));
    });
    child.stdin.end(options.input ?? '');
  });
}

function gitFailed(args: readonly string[], detail: string, cause?: unknown): SkillgardenError {
  return new SkillgardenError('ledger/git-failed', `git ${args.join(' ')} failed: ${detail.slice(0, 500)}`, {
    data: { args: [...args] },
    cause,
  });
}
