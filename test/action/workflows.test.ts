import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createOrigin, runAction, runnerEnv, useAction } from './harness.js';

interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, { steps: { uses?: string; with?: Record<string, unknown> }[] }>;
}

const root = join(import.meta.dirname, '..', '..');
const readWorkflow = (name: string) => parse(readFileSync(join(root, '.github', 'workflows', name), 'utf8')) as Workflow;

/** The `with:` of the workflow's `uses: ./` step, its expressions evaluated for `inputs` (`${{ inputs.x || default }}`). */
function stepInputs(workflow: Workflow, dispatch: Record<string, string>): Record<string, string> {
  const step = Object.values(workflow.jobs)
    .flatMap((j) => j.steps)
    .find((s) => s.uses === './');
  if (!step) throw new Error('no `uses: ./` step');
  return Object.fromEntries(
    Object.entries(step.with ?? {}).map(([key, value]) => [
      key,
      String(value).replace(
        /\$\{\{\s*inputs\.([\w-]+)\s*(?:\|\|\s*([\w-]+))?\s*\}\}/g,
        (_, name: string, fallback?: string) => dispatch[name] ?? fallback ?? '',
      ),
    ]),
  );
}

const action = useAction();

describe("the repository's own workflows", () => {
  it('ask for the least permissions they need', () => {
    expect(readWorkflow('validate-skills.yml').permissions).toEqual({ contents: 'read' });
    expect(readWorkflow('curate.yml').permissions).toEqual({ contents: 'write', 'pull-requests': 'write' });
    expect(Object.keys(readWorkflow('curate.yml').on).sort()).toEqual(['schedule', 'workflow_dispatch']);
  });

  it("curate.yml's step, dispatched with dry-run, reports and opens nothing", async () => {
    const origin = createOrigin([{ name: 'old-helper', age: 100, actor: 'agent' }]);
    const fake = await action.github(origin);
    const inputs = stepInputs(readWorkflow('curate.yml'), { 'dry-run': 'true' });
    expect(inputs).toEqual({ mode: 'curate', 'dry-run': 'true' });
    const result = await runAction(action.entry, runnerEnv({ workspace: origin.workspace, apiUrl: fake.url, inputs }));
    expect(result.code, result.stdout).toBe(0);
    expect(result.outputs).toMatchObject({ status: 'dry-run', archived: '1', 'pull-requests': '[]' });
    expect(fake.requests).toEqual([]);
  });

  it("curate.yml's step, on its schedule, opens the lifecycle pull request", async () => {
    const origin = createOrigin([{ name: 'old-helper', age: 100, actor: 'agent' }]);
    const fake = await action.github(origin);
    const inputs = stepInputs(readWorkflow('curate.yml'), {});
    const result = await runAction(
      action.entry,
      runnerEnv({ workspace: origin.workspace, apiUrl: fake.url, inputs, event: { name: 'schedule', payload: {} } }),
    );
    expect(result.code, result.stdout).toBe(0);
    expect(JSON.parse(result.outputs['pull-requests'] ?? '')).toMatchObject([{ branch: 'skillgarden/lifecycle', operation: 'created' }]);
    expect(fake.violations).toEqual([]);
  });

  it("validate-skills.yml's step validates a pull request's skills", async () => {
    const origin = createOrigin([{ name: 'good-skill', age: 1, actor: 'user' }]);
    const inputs = stepInputs(readWorkflow('validate-skills.yml'), {});
    expect(inputs).toEqual({ mode: 'validate', 'changed-only': 'true' });
    const result = await runAction(action.entry, runnerEnv({ workspace: origin.workspace, apiUrl: 'http://127.0.0.1:9', inputs }));
    expect(result.code, result.stdout).toBe(0);
  });
});
