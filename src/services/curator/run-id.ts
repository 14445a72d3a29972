import { createHash } from 'node:crypto';

/** `2026-11-29T23-00-00Z-3f9a`: the time, plus four hex digits of the head commit and time, so `--now` runs are reproducible. */
export function buildRunId(now: Date, head: string | undefined): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
  const suffix = createHash('sha1')
    .update(`${stamp}:${head ?? ''}`)
    .digest('hex')
    .slice(0, 4);
  return `${stamp}-${suffix}`;
}

/** The tag on the commit a run started from: where `rollback --run` stops. */
export function buildRunTag(runId: string): string {
  return `skillgarden/run/${runId}`;
}
