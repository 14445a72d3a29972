import { readFileSync } from 'node:fs';

/** The parts of the event payload the Action reads. */
export interface EventInfo {
  pullRequest?: { baseSha: string; baseRef: string; fromFork: boolean };
}

/** The workflow's event payload (`GITHUB_EVENT_PATH`); a missing or unreadable file means no pull request. */
export function readEvent(eventPath: string): EventInfo {
  if (eventPath === '') return {};
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(readFileSync(eventPath, 'utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
  const pr = payload.pull_request as
    { base?: { sha?: string; ref?: string; repo?: { full_name?: string } }; head?: { repo?: { full_name?: string } | null } } | undefined;
  if (!pr?.base?.sha) return {};
  const baseRepo = pr.base.repo?.full_name;
  const headRepo = pr.head?.repo?.full_name;
  return { pullRequest: { baseSha: pr.base.sha, baseRef: pr.base.ref ?? '', fromFork: headRepo !== undefined && headRepo !== baseRepo } };
}
