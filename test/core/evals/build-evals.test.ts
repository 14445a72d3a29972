import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildDraftEvals, serializeJson } from '../../../src/core/evals/build-evals.js';
import { validateEvals } from '../../../src/core/evals/validate-evals.js';
import { validateTriggerQueries } from '../../../src/core/evals/validate-trigger-queries.js';

const input = {
  name: 'publish-version-package',
  requests: ['Publish a new version of the package to npm.', 'Publish a new version of the package to npm.', '  Can you publish   it?  '],
  ending: 'release' as const,
  commands: ['npm version', 'npm publish'],
  unrelated: ['Where is the config set up?', 'Can you publish it?'],
};

describe('the evals of a drafted skill', () => {
  it('has a case per distinct request, its expected output how the sessions ended, the commands as assertions', () => {
    const built = buildDraftEvals(input);
    expect(built.evals).toEqual({
      skill_name: 'publish-version-package',
      evals: [1, 2].map((id) => ({
        id,
        prompt: id === 1 ? 'Publish a new version of the package to npm.' : 'Can you publish it?',
        expected_output: 'The new version is released.',
        assertions: ['The agent runs `npm version`.', 'The agent runs `npm publish`.', 'The release is published at the end.'],
      })),
    });
    // A query is never both: an unrelated request equal to one that led to the procedure is left out.
    expect(built.trigger_queries).toEqual([
      { query: 'Publish a new version of the package to npm.', should_trigger: true },
      { query: 'Can you publish it?', should_trigger: true },
      { query: 'Where is the config set up?', should_trigger: false },
    ]);
  });

  it('validates, whatever the requests say', () => {
    const text = fc.string({ maxLength: 600 });
    fc.assert(
      fc.property(fc.array(text, { maxLength: 15 }), fc.array(text, { maxLength: 15 }), (requests, unrelated) => {
        const built = buildDraftEvals({ ...input, requests, unrelated });
        const evals = validateEvals({ file: 'e.json', text: serializeJson(built.evals), folder: input.name, skillFiles: new Set() });
        expect(evals).toEqual([]);
        expect(validateTriggerQueries('t.json', serializeJson(built.trigger_queries))).toEqual([]);
        expect(built.evals.evals.length).toBeLessThanOrEqual(3);
        for (const q of built.trigger_queries) expect(q.query.length).toBeLessThanOrEqual(500);
      }),
    );
  });
});

describe('the trigger queries validator', () => {
  it('names each bad entry and never throws', () => {
    expect(validateTriggerQueries('t.json', '{"evals": []}').map((f) => f.message)).toEqual([
      'a trigger eval set must be a list of queries',
    ]);
    const bad = '[{"query": "a", "should_trigger": "yes"}, {"query": ""}, {"query": "a", "should_trigger": true}, 3]';
    expect(validateTriggerQueries('t.json', bad).map((f) => f.message)).toEqual([
      '[0] needs "should_trigger": true or false',
      '[1] needs a non-empty "query"',
      '[1] needs "should_trigger": true or false',
      '[2] repeats the query of an earlier entry',
      '[3] needs a non-empty "query"',
      '[3] needs "should_trigger": true or false',
    ]);
    expect(validateTriggerQueries('t.json', '[1,').map((f) => f.code)).toEqual(['evals/json-syntax']);
    fc.assert(fc.property(fc.string(), (text) => void validateTriggerQueries('t.json', text)));
  });
});
