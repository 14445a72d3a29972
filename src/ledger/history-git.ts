import { SkillgardenError } from '../core/errors.js';
import { runGit as runSystemGit, systemGitVersion } from './system-git.js';

export interface GitRunResult {
  stdout: string;
  stderr: string;
  code: number;
}

// Settings a user may have that would change the output we parse.
const neutralConfig = ['-c', 'log.showSignature=false', '-c', 'core.quotePath=false', '-c', 'color.ui=false'];

/** Runs the system git in `dir` (through the choke point, system-git.ts); resolves with the exit code, rejects only when git cannot be started. */
export async function runGit(dir: string, args: readonly string[], input?: string): Promise<GitRunResult> {
  const result = await runSystemGit([...neutralConfig, ...args], { cwd: dir, ...(input === undefined ? {} : { input }) });
  return { stdout: result.stdout.toString('utf8'), stderr: result.stderr, code: result.code };
}

/** Runs git and returns stdout, or throws `ledger/git-failed` naming the command and git's own words. */
export async function runGitChecked(dir: string, args: readonly string[], input?: string): Promise<string> {
  const result = await runGit(dir, args, input);
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

/** True when a git new enough for `--diff-merges=first-parent` (2.31) is on the PATH; asked once per process. */
export async function hasSystemGit(): Promise<boolean> {
  const found = await systemGitVersion();
  return found !== undefined && (found[0] > 2 || (found[0] === 2 && found[1] >= 31));
}
