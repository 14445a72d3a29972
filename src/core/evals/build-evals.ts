import type { DraftEnding } from '../patterns/types.js';
import type { DraftEvals } from './types.js';

export interface DraftEvalsInput {
  name: string;
  /** What people asked in the sessions that did the procedure, most typical first. */
  requests: readonly string[];
  /** How those sessions ended, when something told. */
  ending?: DraftEnding;
  /** The commands the sessions' steps ran (`npm version`), the ones that only look around left out. */
  commands: readonly string[];
  /** What people asked in sessions that did something else: queries that should not load the skill. */
  unrelated: readonly string[];
}

const outcomes: Record<DraftEnding, { output: string; check: string }> = {
  tests: { output: 'The change the request asks for is made and the tests pass.', check: 'The last test run passes.' },
  commit: { output: 'The change the request asks for is made and committed.', check: 'The work ends in a commit that says what it does.' },
  release: { output: 'The new version is released.', check: 'The release is published at the end.' },
  submit: { output: 'The result is submitted.', check: 'The result is submitted at the end.' },
};

/** At most this many test cases (the guide: start with 2–3) and trigger queries of each kind (the guide: 8–10). */
const maxCases = 3;
const maxQueries = 10;
const maxQueryLength = 500;

function unique(texts: readonly string[], max: number): string[] {
  const out: string[] = [];
  for (const text of texts) {
    const flat = text.replace(/\s+/g, ' ').trim();
    const cut = flat.length > maxQueryLength ? `${flat.slice(0, maxQueryLength - 1)}…` : flat;
    if (cut !== '' && !out.includes(cut)) out.push(cut);
    if (out.length >= max) break;
  }
  return out;
}

/**
 * The evals of a drafted skill, so a person can run the with/without comparison the format defines: a test case per
 * request that led to the procedure (its expected output how those sessions ended, its assertions the commands
 * they ran), and trigger queries — those requests should load it, unrelated sessions' requests should not.
 */
export function buildDraftEvals(input: DraftEvalsInput): DraftEvals {
  const asked = unique(input.requests, maxQueries);
  const outcome = input.ending === undefined ? undefined : outcomes[input.ending];
  const assertions = [...input.commands.map((c) => `The agent runs \`${c}\`.`), ...(outcome ? [outcome.check] : [])];
  const expected = outcome?.output ?? 'The request is done by the skill’s steps.';
  const evals = asked.slice(0, maxCases).map((prompt, i) => ({ id: i + 1, prompt, expected_output: expected, assertions }));
  const unrelated = unique(input.unrelated, maxQueries).filter((q) => !asked.includes(q));
  return {
    evals: { skill_name: input.name, evals },
    trigger_queries: [
      ...asked.map((query) => ({ query, should_trigger: true })),
      ...unrelated.map((query) => ({ query, should_trigger: false })),
    ],
  };
}

/** A JSON file as the guides show them: two-space indent, a final newline. */
export function serializeJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
