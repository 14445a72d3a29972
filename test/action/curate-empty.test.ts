import { describe, expect, it } from 'vitest';
import { createOrigin, runAction, runnerEnv, useAction } from './harness.js';

const action = useAction();

describe('mode: curate on a library it cannot find', () => {
  it('fails the step, saying where it looked, and opens nothing (as validate mode does)', async () => {
    const origin = createOrigin([]);
    const fake = await action.github(origin);
    const run = await runAction(action.entry, runnerEnv({ workspace: origin.workspace, apiUrl: fake.url, inputs: { mode: 'curate' } }));
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toContain('no skills found');
    expect(run.stdout + run.stderr).toContain('Looked in:');
    expect(fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(origin.branchSha('skillgarden/lifecycle')).toBeNull();
  });
});
