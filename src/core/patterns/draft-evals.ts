import { buildDraftEvals } from '../evals/build-evals.js';
import type { DraftEvals } from '../evals/types.js';
import type { PatternEvidence } from './evidence.js';
import type { SessionIndex } from './session-index.js';
import { listTaskWords } from './task-words.js';

const stem = (word: string) => (word.length > 4 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word);

/**
 * A draft's evals, read from the sessions: its test cases and should-trigger queries are what people asked in the
 * sessions that showed the pattern (redacted by the reader); its should-not-trigger queries what people asked in
 * sessions that did not, sharing none of the task's words.
 */
export function buildPatternEvals(name: string, commands: readonly string[], found: PatternEvidence, sessions: SessionIndex): DraftEvals {
  const task = new Set(found.task.words.map(stem));
  // Each request once, in the order first asked: the evals keep the first few distinct ones (the same whether a
  // request comes once or a hundred thousand times), and a million sessions ask far fewer different things.
  const own = new Set<string>();
  const others = new Set<string>();
  for (let s = 0; s < sessions.count; s += 1) (found.sessionIds.has(sessions.id(s)) ? own : others).add(sessions.firstRequest(s) ?? '');
  const unrelated = [...others].filter((request) => request !== '' && !listTaskWords(request).some((w) => task.has(stem(w))));
  return buildDraftEvals({
    name,
    requests: [...found.evidence.requests, ...own],
    ...(found.evidence.ending === undefined ? {} : { ending: found.evidence.ending }),
    commands,
    unrelated,
  });
}
