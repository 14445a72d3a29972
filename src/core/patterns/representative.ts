import { keyOf, pickExample, readPhrase, type TaskWords } from './task-words.js';
import { stepCalls, stepKey, type Occurrence, type SessionIndex } from './session-index.js';
import type { DetailGroup } from './vary.js';

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

function latestTime(index: SessionIndex, occurrence: Occurrence, length: number): number {
  let latest = -Infinity;
  for (let i = stepCalls(index, occurrence, 0).from, to = stepCalls(index, occurrence, length - 1).to; i < to; i += 1) {
    const ms = index.timeMs(occurrence.session, i);
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
export function pickRepresentative(
  index: SessionIndex,
  occurrences: readonly Occurrence[],
  input: RepresentativeInput,
): Representative | undefined {
  const groupOf = input.groups.map((step) => {
    const byKey = new Map<string, DetailGroup>();
    for (const group of step) for (const member of group.members) byKey.set(member, group);
    return byKey;
  });
  let best: { occurrence: Occurrence; id: string; score: number; quoted: boolean; time: number } | undefined;
  for (const occurrence of occurrences) {
    const id = index.id(occurrence.session);
    const score = groupOf.reduce((sum, byKey, step) => sum + (byKey.get(stepKey(index, occurrence, step) ?? '')?.count ?? 0), 0);
    const quoted = input.task.example !== undefined && (input.asked.get(id) ?? []).includes(input.task.example);
    const time = latestTime(index, occurrence, groupOf.length);
    const better =
      best === undefined ||
      score > best.score ||
      (score === best.score &&
        (Number(quoted) > Number(best.quoted) || (quoted === best.quoted && (time > best.time || (time === best.time && id < best.id)))));
    if (better) best = { occurrence, id, score, quoted, time };
  }
  if (best === undefined) return undefined;
  const { occurrence } = best;
  const steps = groupOf.map((byKey, step) => {
    const key = stepKey(index, occurrence, step);
    return key === undefined ? '' : (byKey.get(key)?.detail ?? key);
  });
  const wording = readWording(best.id, best.quoted, input);
  return { session: best.id, ...wording, steps };
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
