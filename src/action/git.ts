import { SkillgardenError } from '../core/errors.js';
import { runGit } from '../services/git.js';

/** The one place the Action runs git: the system git a runner always has. */
export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
}

export interface GitOptions {
  /** Extra environment (author identity, credentials as GIT_CONFIG_* so they never show in a process list). */
  env?: Record<string, string>;
  input?: string;
  /** Return a failing result instead of throwing. */
  allowFailure?: boolean;
}

export class Git {
  constructor(
    readonly dir: string,
    private readonly baseEnv: Record<string, string> = {},
  ) {}

  /** A Git for another folder with the same credentials. */
  at(dir: string): Git {
    return new Git(dir, this.baseEnv);
  }

  /** Through the one choke point for git (ledger/system-git.ts), which adds no prompts and LC_ALL=C. */
  async run(args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
    const result = await runGit(args, {
      cwd: this.dir,
      env: { ...this.baseEnv, ...options.env },
      ...(options.input !== undefined ? { input: options.input } : {}),
    });
    const stdout = result.stdout.toString('utf8');
    if (result.code !== 0 && !options.allowFailure) {
      throw new SkillgardenError(
        'action/git-failed',
        `git ${redact(args).join(' ')} failed in ${this.dir} (exit ${result.code}): ${result.stderr.trim() || stdout.trim()}`,
        {
          data: { args: redact(args), code: result.code, stderr: result.stderr },
        },
      );
    }
    return { stdout, stderr: result.stderr, code: result.code };
  }

  /** stdout as bytes (a blob's content); throws on failure like `run`. */
  async runBytes(args: readonly string[]): Promise<Buffer> {
    const result = await runGit(args, { cwd: this.dir, env: this.baseEnv });
    if (result.code !== 0)
      throw new SkillgardenError(
        'action/git-failed',
        `git ${redact(args).join(' ')} failed in ${this.dir} (exit ${result.code}): ${result.stderr.trim()}`,
        {
          data: { args: redact(args), code: result.code, stderr: result.stderr },
        },
      );
    return result.stdout;
  }

  async text(args: readonly string[], options: GitOptions = {}): Promise<string> {
    return (await this.run(args, options)).stdout.trim();
  }
}

/** Never echo a credential into a log or an error. */
function redact(args: readonly string[]): string[] {
  return args.map((a) => (/authorization:/i.test(a) ? a.replace(/(authorization:\s*\S+\s+)\S+/i, '$1***') : a));
}

/**
 * Credentials for pushes and fetches over HTTPS, as actions/checkout sets them:
 * `http.<server>/.extraheader` with the token as basic auth. Passed through
 * GIT_CONFIG_* variables, so neither the token nor the header reaches argv.
 */
export function buildAuthEnv(serverUrl: string, token: string): Record<string, string> {
  if (token === '') return {};
  const basic = Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64');
  return { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: `http.${serverUrl}/.extraheader`, GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}` };
}

/** The base64 form of the header: masked too, since git may echo it in verbose output. */
export function authSecrets(token: string): string[] {
  return token === '' ? [] : [token, Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64')];
}

export const botIdentity = {
  GIT_AUTHOR_NAME: 'github-actions[bot]',
  GIT_AUTHOR_EMAIL: '41898282+github-actions[bot]@users.noreply.github.com',
  GIT_COMMITTER_NAME: 'github-actions[bot]',
  GIT_COMMITTER_EMAIL: '41898282+github-actions[bot]@users.noreply.github.com',
};
