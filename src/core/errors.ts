/**
 * Operational failures (not content problems, which are findings). One class
 * with a literal `code` and a `data` payload, as isomorphic-git does; callers
 * branch on `code`, tests assert `code`, never the message wording.
 */
export class SkillgardenError<Code extends string = string> extends Error {
  readonly code: Code;
  readonly data: Record<string, unknown>;

  constructor(code: Code, message: string, options: { data?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SkillgardenError';
    this.code = code;
    this.data = options.data ?? {};
  }
}

export function isSkillgardenError(error: unknown, code?: string): error is SkillgardenError {
  return error instanceof SkillgardenError && (code === undefined || error.code === code);
}

/** What a failing system call means, and what a person can do: the error codes a disk, a mount or a permission gives. */
const systemFaults: Readonly<Record<string, { what: string; todo: string }>> = {
  ENOSPC: { what: 'the disk is full', todo: 'free some space (or point TMPDIR at a disk with room), then run the command again' },
  EDQUOT: { what: 'the disk quota is used up', todo: 'free some space within your quota, then run the command again' },
  EROFS: {
    what: 'the file system is read-only',
    todo: 'run the command where the repository is writable, or use --dry-run where it has one',
  },
  EACCES: { what: 'permission denied', todo: 'check who owns the path and its mode (ls -l), or run as the user who owns the repository' },
  EPERM: { what: 'the operation is not permitted', todo: 'check the path is not locked, immutable or owned by another user' },
  EMFILE: { what: 'too many files are open', todo: 'raise the limit (ulimit -n) or run fewer commands at once' },
  EIO: { what: 'the disk reported an input/output error', todo: 'check the disk (dmesg, fsck) before writing to it again' },
};

/**
 * A system error (a Node `errno` error, or one carried as the `cause` of ours) in plain words, with the path and
 * what to do; undefined for any other error. `ENOSPC` alone tells a person nothing.
 */
export function describeSystemError(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, path, dest, syscall } = e as { code?: unknown; path?: unknown; dest?: unknown; syscall?: unknown };
    const fault = typeof code === 'string' ? systemFaults[code] : undefined;
    if (!fault) continue;
    const where = typeof path === 'string' ? ` at ${path}${typeof dest === 'string' ? ` (to ${dest})` : ''}` : '';
    const during = typeof syscall === 'string' ? ` (${syscall})` : '';
    return `${fault.what}${where}${during} [${code as string}]: ${fault.todo}.`;
  }
  return undefined;
}
