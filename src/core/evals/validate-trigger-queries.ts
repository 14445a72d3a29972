import { finding, type Finding } from '../findings.js';

const shapeHint = 'Write [{"query": "…", "should_trigger": true}, {"query": "…", "should_trigger": false}].';

/**
 * Checks a trigger eval set (`evals/trigger-queries.json`): the array of `{ "query", "should_trigger" }` the Agent
 * Skills guide "Optimizing skill descriptions" runs. Never throws; each finding names the query's index.
 */
export function validateTriggerQueries(file: string, text: string): Finding[] {
  const problem = (message: string, hint = shapeHint) =>
    finding({ code: 'evals/bad-trigger-query', severity: 'error', file, message, hint });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const hint = 'Fix the syntax; the file must be plain JSON (no comments, no trailing commas).';
    return [finding({ code: 'evals/json-syntax', severity: 'error', file, message: `not valid JSON: ${(error as Error).message}`, hint })];
  }
  if (!Array.isArray(data)) return [problem('a trigger eval set must be a list of queries')];
  const out: Finding[] = [];
  const seen = new Set<string>();
  data.forEach((item: unknown, i: number) => {
    const record = typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as Record<string, unknown>) : undefined;
    if (typeof record?.query !== 'string' || record.query.trim() === '') out.push(problem(`[${i}] needs a non-empty "query"`));
    else if (seen.has(record.query)) out.push(problem(`[${i}] repeats the query of an earlier entry`, 'Keep each query once.'));
    else seen.add(record.query);
    if (typeof record?.should_trigger !== 'boolean') out.push(problem(`[${i}] needs "should_trigger": true or false`));
  });
  return out;
}
