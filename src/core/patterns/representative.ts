import { keyOf, pickExample, readPhrase, type TaskWords } from './task-words.js';
import type { ToolCall } from './types.js';
import type { DetailGroup } from './vary.js';

/** An occurrence of a sequence as this file reads it (evidence.ts's `Occurrence`). */
interface SeenOccurrence {
  session: { id: string; calls: readonly Pick<ToolCall, 'detail' | 'time'>[] };
  /** Call indexes of each step. */
  steps: number[][];
}

/**
 * The one session a draft is written from (issue #29: the task phrase came from
 * one session and the commands from another — "Deploy … to qa" over
 * `kubectl --context prod apply -f`). Only strings are kept, one set per
 * pattern, whatever the number of sessions.
 */
export interface Representative {
  session: string;
  /** What that session asked before the sequence, which the phrase is read from. */
  request?: string;
  /** The task in that request's words (`deploy the api to qa`). */
  phrase?: string;
  /** Per step, that session's commands with the arguments that vary across sessions as placeholders; `''` where the step has none. */
  steps: string[];
}

/** One occurrence's details at a step, at most three distinct ones joined by ` && ` (undefined when the step has none). */
export function stepKey(occurrence: SeenOccurrence, step: number): string | undefined {
  const run: string[] = [];
  for (const index of occurrence.steps[step] ?? []) {
    const detail = occurrence.session.calls[index]?.detail;
    if (detail !== undefined && run[run.length - 1] !== detail) run.push(detail);
  }
  return run.length === 0 ? undefined : run.slice(0, 3).join(' && ');
}

function latestTime(occurrence: SeenOccurrence): number {
  let latest = -Infinity;
  for (const step of occurrence.steps)
    for (const i of step) {
      const ms = Date.parse(occurrence.session.calls[i]?.time ?? '');
      if (!Number.isNaN(ms) && ms > latest) latest = ms;
    }
  return latest;
}

interface RepresentativeInput {
  /** Per step, the details merged across sessions (vary.ts), with the details each stands for. */
  groups: readonly (readonly DetailGroup[])[];
  /** What each session asked before its first occurrence. */
  asked: ReadonlyMap<string, readonly string[]>;
  task: TaskWords;
}

/**
 * The most typical occurrence: the one whose commands, step by step, are the
 * ones most sessions ran (its details' merged group counts, summed). Ties go
 * to the session that asked the request the task words quote, then to the
 * most recent, then to the first session id. Its steps keep its own commands
 * whole; only an argument that varies across sessions is a placeholder.
 */
export function pickRepresentative(occurrences: readonly SeenOccurrence[], input: RepresentativeInput): Representative | undefined {
  const groupOf = input.groups.map((step) => {
    const byKey = new Map<string, DetailGroup>();
    for (const group of step) for (const member of group.members) byKey.set(member, group);
    return byKey;
  });
  let best: { occurrence: SeenOccurrence; score: number; quoted: boolean; time: number } | undefined;
  for (const occurrence of occurrences) {
    const score = groupOf.reduce((sum, byKey, step) => sum + (byKey.get(stepKey(occurrence, step) ?? '')?.count ?? 0), 0);
    const quoted = input.task.example !== undefined && (input.asked.get(occurrence.session.id) ?? []).includes(input.task.example);
    const time = latestTime(occurrence);
    const better =
      best === undefined ||
      score > best.score ||
      (score === best.score &&
        (Number(quoted) > Number(best.quoted) ||
          (quoted === best.quoted && (time > best.time || (time === best.time && occurrence.session.id < best.occurrence.session.id)))));
    if (better) best = { occurrence, score, quoted, time };
  }
  if (best === undefined) return undefined;
  const { occurrence } = best;
  const steps = groupOf.map((byKey, step) => {
    const key = stepKey(occurrence, step);
    return key === undefined ? '' : (byKey.get(key)?.detail ?? key);
  });
  const wording = readWording(occurrence.session.id, best.quoted, input);
  return { session: occurrence.session.id, ...wording, steps };
}

/** The representative's request and phrase: the quoted request's when it asked it, else its own request with most of the task words. */
function readWording(session: string, quoted: boolean, input: RepresentativeInput): { request?: string; phrase?: string } {
  const { task } = input;
  if (quoted)
    return {
      ...(task.example === undefined ? {} : { request: task.example }),
      ...(task.phrase === undefined ? {} : { phrase: task.phrase }),
    };
  const recurring = new Set(task.words.map((w) => keyOf(w.toLowerCase())));
  const request = pickExample([...(input.asked.get(session) ?? [])], recurring);
  if (request === undefined) return {};
  const { phrase } = readPhrase(request, recurring);
  return phrase === undefined ? { request } : { request, phrase };
}
