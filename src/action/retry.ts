/** A failed HTTP answer as Octokit reports it: status and headers, never its wording. */
export interface HttpFailure {
  status: number;
  headers: Record<string, string | number | undefined>;
}

export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  baseMs: number;
  /** No single wait is longer, whatever `retry-after` asks for. */
  maxMs: number;
}

/** 5xx, and GitHub's rate limits: 429, or 403 with no requests left or a `retry-after`. */
export function isRetryable(failure: HttpFailure): boolean {
  if (failure.status >= 500 || failure.status === 429) return true;
  return (
    failure.status === 403 && (String(failure.headers['x-ratelimit-remaining']) === '0' || failure.headers['retry-after'] !== undefined)
  );
}

/** How long to wait before try `attempt` (1-based retries): what GitHub asks for, else exponential; capped. */
export function planDelay(failure: HttpFailure, attempt: number, policy: RetryPolicy, nowMs: number): number {
  const retryAfter = Number(failure.headers['retry-after']);
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return Math.min(retryAfter * 1000, policy.maxMs);
  const reset = Number(failure.headers['x-ratelimit-reset']);
  if (String(failure.headers['x-ratelimit-remaining']) === '0' && Number.isFinite(reset))
    return Math.min(Math.max(0, reset * 1000 - nowMs), policy.maxMs);
  return Math.min(policy.baseMs * 2 ** (attempt - 1), policy.maxMs);
}

export function toHttpFailure(error: unknown): HttpFailure | null {
  if (error === null || typeof error !== 'object') return null;
  const status = (error as { status?: unknown }).status;
  if (typeof status !== 'number') return null;
  const headers = (error as { response?: { headers?: HttpFailure['headers'] } }).response?.headers ?? {};
  return { status, headers };
}

export interface RetryOutcome<T> {
  value?: T;
  /** The last failure when every try failed or the failure was not retryable. */
  failure?: { error: unknown; http: HttpFailure | null; attempts: number };
}

/** Calls `fn` until it succeeds, fails for good, or the budget is spent; never throws. */
export async function withRetry<T>(
  fn: () => Promise<T>,
  policy: RetryPolicy,
  sleep: (ms: number) => Promise<void>,
  clock: () => number,
): Promise<RetryOutcome<T>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { value: await fn() };
    } catch (error) {
      const http = toHttpFailure(error);
      if (http === null || !isRetryable(http) || attempt >= policy.attempts) return { failure: { error, http, attempts: attempt } };
      await sleep(planDelay(http, attempt, policy, clock()));
    }
  }
}
