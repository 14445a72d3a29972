/** The Agent Skills evaluation files a skill may carry, as skillgarden writes them for a drafted skill. */

/** One test case of `evals/evals.json` (the Agent Skills evaluation format, agentskills.io "Evaluating skills"). */
export interface EvalCase {
  id: number;
  /** A realistic user message: what a person asked in a session that did the procedure (redacted by the reader). */
  prompt: string;
  /** What success looks like, in words: how those sessions ended. */
  expected_output: string;
  /** Verifiable statements a grader checks (the guide's `assertions`, which the validator reads too). */
  assertions: string[];
}

export interface EvalsFile {
  skill_name: string;
  evals: EvalCase[];
}

/** One query of a trigger eval set (agentskills.io "Optimizing skill descriptions"): should the skill load? */
export interface TriggerQuery {
  query: string;
  should_trigger: boolean;
}

/** Where a skill keeps its trigger eval set: beside `evals/evals.json`, the array the guide's script reads. */
export const triggerQueriesFile = 'evals/trigger-queries.json';

/** A drafted skill's evals: its test cases and its trigger queries, both read from the sessions that showed it. */
export interface DraftEvals {
  evals: EvalsFile;
  trigger_queries: TriggerQuery[];
}
