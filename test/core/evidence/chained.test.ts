import { describe, expect, it } from 'vitest';
import { listSessionCommands, readSessionOutcome } from '../../../src/core/evidence/index.js';
import { buildToolCall, defaultRefine } from '../../../src/core/patterns/shape.js';

const bash = (command: string, error?: true) => ({
  ...buildToolCall('Bash', { command }, { refine: defaultRefine }),
  ...(error ? { error } : {}),
});

describe('evidence reads every command of a chain, not the first alone', () => {
  it('a session that ran `npm run build && npm publish` ran npm publish: it counts toward a release procedure', () => {
    const keys = listSessionCommands([bash('npm run build && npm publish'), bash('cd pkg && npm version patch')]);
    expect([...keys].sort()).toEqual(['npm publish', 'npm run build', 'npm version']);
    // The plain reading, first command only, missed it.
    expect([...listSessionCommands([{ ...bash('npm run build && npm publish'), chain: undefined }])]).toEqual(['npm run build']);
  });

  it('a chained test run and commit at the end say how the session went', () => {
    const outcome = readSessionOutcome([bash('npm ci'), bash('npm test && git commit -m "fix the bug"')]);
    expect(outcome).toMatchObject({ testsPassing: true, commit: true });
    const failed = readSessionOutcome([bash('npm ci'), bash('npm test && git commit -m "fix"', true)]);
    expect(failed).toMatchObject({ testsPassing: false, commit: false });
  });
});
