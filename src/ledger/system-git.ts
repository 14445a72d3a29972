import { execFile, spawn, spawnSync } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { simpleGit } from 'simple-git';
import type { SimpleGit } from 'simple-git';
import { SkillgardenError } from '../core/errors.js';

/*
 * The one choke point for the git on the PATH. Porcelain (fetch, push,
 * rebase, status) goes through simple-git; plumbing the ledger parses, or
 * feeds bytes on stdin, goes through `runGit`, and hot paths keep a process
 * running (`spawnGit`: cat-file --batch, log streams). simple-git is the
 * wrong tool for those: it buffers stdout as text (blobs are bytes), takes
 * no stdin, and queues one task at a time behind a promise chain.
 */

export interface GitRunOptions {
  /** Folder git runs in (its repository discovery starts there). */
  cwd: string;
  /** Extra environment; `undefined` values remove a variable. */
  env?: Record<string, string | undefined>;
  input?: Uint8Array | string;
  /** Bounded time for porcelain that may reach a network. */
  timeoutMs?: number;
}

export interface GitRunResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

/** No prompts, no pager, git's own words in English (we quote them in errors). */
export function gitEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C' };
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Runs git once; resolves with its exit code, rejects only when git cannot be started. */
export function runGit(args: readonly string[], options: GitRunOptions): Promise<GitRunResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      args,
      {
        cwd: options.cwd,
        env: gitEnv(options.env),
        encoding: 'buffer',
        maxBuffer: 512 * 1024 * 1024,
        ...(options.timeoutMs ? { timeout: options.timeoutMs, killSignal: 'SIGKILL' as const } : {}),
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : error.killed ? 124 : -1) : 0;
        if (error && typeof error.code === 'string') reject(error);
        else resolve({ stdout, stderr: stderr.toString('utf8'), code });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** Runs git and returns stdout, or throws `ledger/git-failed` naming the command and git's own words. */
export async function runGitChecked(args: readonly string[], options: GitRunOptions): Promise<Buffer> {
  const result = await runGit(args, options);
  if (result.code === 0) return result.stdout;
  const shown = args.filter((a) => !a.startsWith('-c') && !a.includes('=')).slice(0, 3);
  throw new SkillgardenError(
    'ledger/git-failed',
    `git ${shown.join(' ')} failed in ${options.cwd} (exit ${result.code}): ${result.stderr.trim()}`,
    {
      data: { dir: options.cwd, args, code: result.code, stderr: result.stderr },
    },
  );
}

/** A long-running git (cat-file --batch, log streams): stdin, stdout and stderr piped. */
export function spawnGit(args: readonly string[], options: Pick<GitRunOptions, 'cwd' | 'env'>): ChildProcessWithoutNullStreams {
  return spawn('git', args, { cwd: options.cwd, env: gitEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
}

/**
 * simple-git for porcelain in `dir`, with the same environment rules. Its
 * guards are for arguments from untrusted input; ours are fixed here, and the
 * environment is the user's own (GIT_DIR, GIT_CONFIG_GLOBAL, GIT_SSH_COMMAND,
 * the Action's GIT_CONFIG_COUNT credentials), which git's rules must see:
 * so it passes as it is instead of being stripped.
 */
export function porcelainGit(dir: string, options: { timeoutMs?: number; env?: Record<string, string | undefined> } = {}): SimpleGit {
  const env = gitEnv({ GIT_EDITOR: 'true', ...options.env });
  const git = simpleGit({
    baseDir: dir,
    allowEnvironment: Object.keys(env),
    unsafe: {
      allowUnsafeEditor: true,
      allowUnsafePager: true,
      allowUnsafeConfigEnvCount: true,
      allowUnsafeSshCommand: true,
      allowUnsafeAskPass: true,
    },
    ...(options.timeoutMs ? { timeout: { block: options.timeoutMs } } : {}),
  });
  return git.env(env);
}

let onPath: boolean | undefined;

/** Whether a git binary is on the PATH (asked once per process). */
export function hasGitBinary(): boolean {
  onPath ??= spawnSync('git', ['--version'], { stdio: 'ignore', env: gitEnv() }).status === 0;
  return onPath;
}

let version: Promise<[number, number] | undefined> | undefined;

/** The system git's major and minor version; `undefined` when there is none. */
export function systemGitVersion(): Promise<[number, number] | undefined> {
  version ??= runGit(['--version'], { cwd: '.' }).then(
    (result) => {
      const match = /git version (\d+)\.(\d+)/.exec(result.stdout.toString('utf8'));
      return result.code === 0 && match ? [Number(match[1]), Number(match[2])] : undefined;
    },
    () => undefined,
  );
  return version;
}
