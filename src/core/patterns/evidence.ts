import { findTaskWords, type TaskWords } from './task-words.js';
import { buildToken } from './tokens.js';
import { mergeVaryingDetails } from './vary.js';
import type { DraftEnding, DraftEvidence, SessionRequest, ToolCall } from './types.js';

/** A session as the drafter reads it: its calls (for details and times) and what the person asked. */
export interface EvidenceSession {
  id: string;
  file: string;
  calls: readonly ToolCall[];
  requests: readonly SessionRequest[];
  /** Skills the session loaded (Skill tool, slash command, a read of its SKILL.md). */
  loaded?: readonly string[];
}

/** Everything the sessions say about one pattern. */
export interface PatternEvidence {
  evidence: DraftEvidence;
  task: TaskWords;
  /** Per step: details seen there, most frequent first, with counts. */
  details: Array<Array<[string, number]>>;
  /** Session ids, for overlap between patterns. */
  sessionIds: ReadonlySet<string>;
  /** Skills the pattern's sessions loaded, with how many sessions loaded each, most first. */
  loaded: Array<[string, number]>;
}

interface Occurrence {
  session: EvidenceSession;
  /** Call indexes of each step (a step is a run of one token). */
  steps: number[][];
}

/** Runs of one token, as the miner saw them, with the calls of each run. */
function collapse(calls: readonly ToolCall[], refine: boolean): { tokens: string[]; runs: number[][] } {
  const tokens: string[] = [];
  const runs: number[][] = [];
  calls.forEach((call, i) => {
    const token = buildToken(call, { refine });
    if (tokens[tokens.length - 1] === token) (runs[runs.length - 1] as number[]).push(i);
    else {
      tokens.push(token);
      runs.push([i]);
    }
  });
  return { tokens, runs };
}

function findOccurrences(tools: readonly string[], sessions: readonly EvidenceSession[], refine: boolean): Occurrence[] {
  const out: Occurrence[] = [];
  for (const session of sessions) {
    const { tokens, runs } = collapse(session.calls, refine);
    for (let i = 0; i + tools.length <= tokens.length; i += 1) {
      if (tools.every((t, j) => tokens[i + j] === t)) out.push({ session, steps: runs.slice(i, i + tools.length) });
    }
  }
  return out;
}

const testCommand =
  /^(npm|pnpm|yarn|bun|npx)( run)? (test|vitest|jest)|^(pytest|vitest|jest|tox|nox)\b|^(cargo|go|mix|dotnet|mvn|gradle|make|rake) test|^python3? -m (pytest|unittest)/;
const releaseCommand = /^(npm|pnpm|yarn) publish|^git (push|tag)|^gh release|^cargo publish|^twine upload|^(poetry|uv) publish/;

/** How a sequence ends, read from its last steps' details: tests run, a commit, a release, a submission. */
export function readEnding(lastDetails: readonly string[], lastTool: string): DraftEnding | undefined {
  const commands = lastDetails.flatMap((d) => d.split(' && '));
  if (commands.some((d) => releaseCommand.test(d))) return 'release';
  if (commands.some((d) => /^git commit\b/.test(d))) return 'commit';
  if (commands.some((d) => testCommand.test(d))) return 'tests';
  if (/submit|finish/i.test(lastTool)) return 'submit';
  return undefined;
}

/**
 * The details of one step, most frequent first. A step is a run of one token
 * (`npm test`, then `npm version patch`): a run's details count as one entry,
 * joined in order by ` && `, so the steps keep what came first.
 */
function countDetails(occurrences: readonly Occurrence[], step: number): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const occurrence of occurrences) {
    const run: string[] = [];
    for (const index of occurrence.steps[step] ?? []) {
      const detail = occurrence.session.calls[index]?.detail;
      if (detail !== undefined && run[run.length - 1] !== detail) run.push(detail);
    }
    if (run.length === 0) continue;
    const key = run.slice(0, 3).join(' && ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return mergeVaryingDetails([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}

/** What each session asked before its first occurrence of the sequence (or its first request, when it asked later). */
function askedBefore(occurrences: readonly Occurrence[]): Map<string, string[]> {
  const asked = new Map<string, string[]>();
  for (const { session, steps } of occurrences) {
    if (asked.has(session.id)) continue;
    const start = steps[0]?.[0] ?? 0;
    const before = session.requests.filter((r) => r.at <= start).map((r) => r.text);
    asked.set(session.id, before.length > 0 ? before : session.requests.slice(0, 1).map((r) => r.text));
  }
  return asked;
}

function timeRange(occurrences: readonly Occurrence[]): { first?: string; last?: string } {
  const times = occurrences
    .flatMap((o) => o.steps.flat().map((i) => o.session.calls[i]?.time))
    .filter((t): t is string => t !== undefined && !Number.isNaN(Date.parse(t)))
    .sort((a, b) => Date.parse(a) - Date.parse(b));
  return times.length === 0 ? {} : { first: times[0], last: times[times.length - 1] };
}

/** Reads a pattern's occurrences in the sessions: who asked what, which details recur, how it ends, when. */
export function buildPatternEvidence(tools: readonly string[], sessions: readonly EvidenceSession[], refine = true): PatternEvidence {
  const occurrences = findOccurrences(tools, sessions, refine);
  const ids = [...new Set(occurrences.map((o) => o.session.id))];
  const files = [...new Set(occurrences.map((o) => o.session.file))].sort();
  const details = tools.map((_, step) => countDetails(occurrences, step));
  const asked = askedBefore(occurrences);
  const task = findTaskWords([...asked.values()]);
  // A final `finish` says less than the tests or the commit just before it.
  const lastDetails = details.slice(-2).flatMap((step) => step.map(([d]) => d));
  const ending = readEnding(lastDetails, tools[tools.length - 1] ?? '');
  const { first, last } = timeRange(occurrences);
  const examples = [...new Set([...asked.values()].map((texts) => texts[texts.length - 1] as string).filter((t) => t !== undefined))];
  const evidence: DraftEvidence = {
    sessions: ids,
    files,
    ...(first === undefined ? {} : { first_seen: first }),
    ...(last === undefined ? {} : { last_seen: last }),
    requests: examples.slice(0, 3).map((t) => (t.length > 200 ? `${t.slice(0, 199)}…` : t)),
    task_words: task.words,
    ...(ending === undefined ? {} : { ending }),
  };
  const loaded = new Map<string, number>();
  for (const session of new Set(occurrences.map((o) => o.session)))
    for (const skill of new Set(session.loaded ?? [])) loaded.set(skill, (loaded.get(skill) ?? 0) + 1);
  return { evidence, task, details, sessionIds: new Set(ids), loaded: [...loaded].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)) };
}
