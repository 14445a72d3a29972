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
