import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSkillgardenError } from '../../src/core/errors.js';
import { parseCommitMessage } from '../../src/core/ledger/trailers.js';
import type { RunReport } from '../../src/core/report/run-report.js';
import { readInputs } from '../../src/action/inputs.js';
import { codeSpan, escapeMarkdown } from '../../src/action/markdown.js';
import { buildLifecycleText, maxBodyLength, readFingerprint, renderProposalBody } from '../../src/services/proposals/index.js';
import { isRetryable, planDelay } from '../../src/action/retry.js';

describe('markdown escaping', () => {
  it.each([
    ['[click](https://evil.example)', '\\[click\\]\\(https://evil.example\\)'],
    ['<img src=x onerror=alert(1)>', '\\<img src=x onerror=alert\\(1\\)\\>'],
    ['@team ping', '@\u200bteam ping'],
    ['a | b\nc', 'a \\| b c'],
  ])('%j', (text, expected) => {
    expect(escapeMarkdown(text)).toBe(expected);
  });

  it('a code span survives backticks inside', () => {
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('`x')).toBe('`` `x ``');
  });
});

function report(transitions: number): RunReport {
  return {
    version: 1,
    run_id: '2026-11-29T12-00-00Z-abcd',
    time: '2026-11-29T12:00:00.000Z',
    repo: '/r',
    dry_run: false,
    status: 'completed',
    gates: {
      applied: false,
      enabled: true,
      paused: false,
      interval_hours: 168,
      last_run_at: null,
      next_due_at: null,
      first_run: true,
      blocked_by: null,
    },
    counts: { before: { active: transitions, stale: 0, archived: 0 }, after: { active: 0, stale: 0, archived: transitions } },
    counters: { checked: transitions, marked_stale: 0, archived: transitions, reactivated: 0, seeded: 0 },
    transitions: Array.from({ length: transitions }, (_, i) => ({
      skill: `skill-${i}-${'x'.repeat(30)}`,
      from: 'active' as const,
      to: i % 2 ? ('archived' as const) : ('stale' as const),
      anchor: '2026-01-01T00:00:00Z',
      anchor_source: 'created',
      reason: `idle for ${100 + i} days`,
      commit: null,
    })),
    skipped: [],
    seeded: [],
    forgotten: [],
    patterns: [],
    plans: [],
    prs: [],
    errors: [],
    warnings: [],
    undo: null,
    commits: [],
    timings_ms: {},
  };
}

describe('the proposal pull request body', () => {
  it('ends with the commit trailer block, which the ledger parser reads back', () => {
    const proposal = buildLifecycleText({ transitions: report(3).transitions, runId: 'r' })!;
    const body = renderProposalBody({
      proposal,
      runId: 'r',
      validation: 'ok',
      report: '# Curator run\n\ntext',
      fullReportUrl: 'https://x/runs/1',
    });
    expect(body.trimEnd().endsWith(proposal.trailerBlock)).toBe(true);
    expect(parseCommitMessage(`title\n\n${body}`).trailers).toEqual(parseCommitMessage(proposal.message).trailers);
    expect(readFingerprint(body)).toBe(proposal.fingerprint);
    expect(body).toContain('## Report\n\n## Curator run');
  });

  it("is cut to GitHub's limit with a pointer to the full report, keeping markers and trailers", () => {
    for (const count of [40, 2000]) {
      const proposal = buildLifecycleText({ transitions: report(count).transitions, runId: 'r' })!;
      const body = renderProposalBody({
        proposal,
        runId: 'r',
        validation: 'ok',
        report: 'line of the report\n'.repeat(10_000),
        fullReportUrl: 'https://x/runs/1',
      });
      expect(body.length).toBeLessThanOrEqual(maxBodyLength);
      expect(body).toContain('full report is in the job summary');
      expect(readFingerprint(body)).toBe(proposal.fingerprint);
      expect(body).toMatch(/```yaml\n[\s\S]*\n```\n/);
      // 2,000 skill names do not fit in 64 KiB: the body says how to merge so the commit's trailers survive.
      if (count === 40) expect(parseCommitMessage(`t\n\n${body}`).trailers.skills).toHaveLength(count);
      else expect(body).toContain('merge with a merge commit or rebase');
    }
  });

  it('the fingerprint depends on the decisions, not their order or the run', () => {
    const a = buildLifecycleText({ transitions: report(4).transitions, runId: 'r' })!;
    const reversed = report(4);
    reversed.transitions.reverse();
    reversed.run_id = 'another-run';
    expect(buildLifecycleText({ transitions: reversed.transitions, runId: reversed.run_id })!.fingerprint).toBe(a.fingerprint);
    expect(buildLifecycleText({ transitions: report(5).transitions, runId: 'r' })!.fingerprint).not.toBe(a.fingerprint);
    expect(buildLifecycleText({ transitions: report(0).transitions, runId: 'r' })).toBeUndefined();
  });
});

describe('retry policy', () => {
  const policy = { attempts: 5, baseMs: 100, maxMs: 5000 };
  it.each([
    [{ status: 500, headers: {} }, true],
    [{ status: 502, headers: {} }, true],
    [{ status: 429, headers: {} }, true],
    [{ status: 403, headers: { 'x-ratelimit-remaining': '0' } }, true],
    [{ status: 403, headers: { 'retry-after': '3' } }, true],
    [{ status: 403, headers: { 'x-ratelimit-remaining': '12' } }, false],
    [{ status: 404, headers: {} }, false],
    [{ status: 422, headers: {} }, false],
  ])('%j retryable: %s', (failure, expected) => {
    expect(isRetryable(failure)).toBe(expected);
  });

  it.each([
    [{ status: 503, headers: {} }, 1, 100],
    [{ status: 503, headers: {} }, 3, 400],
    [{ status: 503, headers: {} }, 10, 5000],
    [{ status: 429, headers: { 'retry-after': '2' } }, 1, 2000],
    [{ status: 429, headers: { 'retry-after': '600' } }, 1, 5000],
    [{ status: 403, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1003' } }, 1, 3000],
  ])('%j try %i waits %i ms', (failure, attempt, expected) => {
    expect(planDelay(failure, attempt, policy, 1_000_000)).toBe(expected);
  });
});

describe('readInputs', () => {
  const base = { GITHUB_REPOSITORY: 'o/r', GITHUB_WORKSPACE: '/w', RUNNER_TEMP: '/t' };
  it('reads INPUT_ names as the runner writes them (hyphens kept) into one typed object', () => {
    const inputs = readInputs({
      ...base,
      INPUT_MODE: 'curate',
      'INPUT_DRY-RUN': 'true',
      'INPUT_PUSH-TRANSITIONS': 'False',
      INPUT_LABELS: 'a, b\nc',
      'INPUT_API-RETRIES': '2',
    });
    expect(inputs).toMatchObject({
      mode: 'curate',
      dryRun: true,
      pushTransitions: false,
      extraLabels: ['a', 'b', 'c'],
      reportDir: '/t/skillgarden',
      workspace: '/w',
    });
    expect(inputs.retry.attempts).toBe(3);
    expect(inputs.draftLimits).toEqual({});
    expect(inputs.github).toMatchObject({ owner: 'o', repo: 'r', apiUrl: 'https://api.github.com' });
  });

  it('reads the draft limits; each one given overrides only its own `patterns:` key', () => {
    expect(readInputs({ ...base, 'INPUT_MAX-DRAFTS': '0', 'INPUT_MIN-CONFIDENCE': '0.6' }).draftLimits).toEqual({
      max_drafts: 0,
      min_confidence: 0.6,
    });
    expect(readInputs({ ...base, 'INPUT_MIN-SESSIONS': '4' }).draftLimits).toEqual({ min_sessions: 4 });
  });

  it.each([
    [{ INPUT_MODE: 'prune' }, 'mode'],
    [{ 'INPUT_DRY-RUN': 'yes' }, 'dry-run'],
    [{ INPUT_PROFILE: 'loose' }, 'profile'],
    [{ 'INPUT_API-RETRIES': '-1' }, 'api-retries'],
    [{ 'INPUT_MAX-DRAFTS': '2.5' }, 'max-drafts'],
    [{ 'INPUT_MIN-SESSIONS': '1' }, 'min-sessions'],
    [{ 'INPUT_MIN-CONFIDENCE': '1.5' }, 'min-confidence'],
  ])('%j is refused naming %s', (env, name) => {
    try {
      readInputs({ ...base, ...env });
      expect.unreachable();
    } catch (error) {
      expect(isSkillgardenError(error, 'action/bad-input')).toBe(true);
      expect((error as { data: { input: string } }).data.input).toBe(name);
    }
  });
});

describe('the Action keeps its edges in one place each', () => {
  const dir = join(import.meta.dirname, '..', '..', 'src', 'action');
  const sources = readdirSync(dir).filter((f) => f.endsWith('.ts'));
  const importing = (pattern: RegExp) => sources.filter((f) => pattern.test(readFileSync(join(dir, f), 'utf8'))).sort();

  it('only main.ts imports @actions/core; only git.ts runs processes', () => {
    expect(importing(/from '@actions\/core'/)).toEqual(['main.ts']);
    expect(importing(/from 'node:child_process'|from 'simple-git'|ledger\/system-git/)).toEqual(['git.ts']);
    // The runner's environment is read once, in main.ts; git.ts runs git through the choke point (ledger/system-git.ts), which passes it on (PATH, HOME).
    expect(importing(/process\.env/)).toEqual(['main.ts']);
  });
});
