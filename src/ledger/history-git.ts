import { spawn } from 'node:child_process';
import { SkillgardenError } from '../core/errors.js';

export interface GitRunResult {
  stdout: string;
  stderr: string;
  code: number;
}

// Settings a user may have that would change the output we parse.
const neutralConfig = ['-c', 'log.showSignature=false', '-c', 'core.quotePath=false', '-c', 'color.ui=false'];

/** Runs the system git in `dir`; resolves with the exit code, rejects only when git cannot be started. */
export function runGit(dir: string, args: readonly string[]): Promise<GitRunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...neutralConfig, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), code: code ?? -1 }),
    );
  });
}

/** Runs git and returns stdout, or throws `ledger/git-failed` naming the command and git's own words. */
export async function runGitChecked(dir: string, args: readonly string[]): Promise<string> {
  const result = await runGit(dir, args);
  if (result.code !== 0) {
    throw new SkillgardenError(
      'ledger/git-failed',
      `git ${args[0] ?? ''} failed in ${dir} (exit ${result.code}): ${result.stderr.trim()}`,
      {
        data: { dir, args, code: result.code, stderr: result.stderr },
      },
    );
  }
  return result.stdout;
}

let systemGit: Promise<boolean> | undefined;

/** True when a git new enough for `--diff-merges=first-parent` (2.31) is on the PATH; asked once per process. */
export function hasSystemGit(): Promise<boolean> {
  systemGit ??= runGit('.', ['--version']).then(
    (result) => {
      const match = /git version (\d+)\.(\d+)/.exec(result.stdout);
      return result.code === 0 && match !== null && (Number(match[1]) > 2 || (Number(match[1]) === 2 && Number(match[2]) >= 31));
    },
    () => false,
  );
  return systemGit;
}
