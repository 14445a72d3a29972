import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPatternEvidence } from '../../../src/core/patterns/evidence.js';
import { findOccurrences, indexSessions, occurrenceSteps, type MinedSession } from '../../../src/core/patterns/session-index.js';
import { buildToken } from '../../../src/core/patterns/tokens.js';
import type { ToolCall } from '../../../src/core/patterns/types.js';

/** The plain search the index replaced: every session's calls tokenized and collapsed again, every position tried. */
function naiveOccurrences(tools: readonly string[], sessions: readonly MinedSession[], refine: boolean): Array<[string, number[][]]> {
  const out: Array<[string, number[][]]> = [];
  for (const session of sessions) {
    const tokens: string[] = [];
    const runs: number[][] = [];
    session.calls.forEach((call, i) => {
      const token = buildToken(call, { refine });
      if (tokens[tokens.length - 1] === token) (runs[runs.length - 1] as number[]).push(i);
      else {
        tokens.push(token);
        runs.push([i]);
      }
    });
    for (let i = 0; i + tools.length <= tokens.length; i += 1)
      if (tools.every((t, j) => tokens[i + j] === t)) out.push([session.id, runs.slice(i, i + tools.length)]);
  }
  return out;
}

const names = ['Read', 'Edit', 'Bash', 'Grep'];
const programs = ['git', 'npm', undefined];

const callArbitrary: fc.Arbitrary<ToolCall> = fc
  .record({
    name: fc.constantFrom(...names),
    program: fc.constantFrom(...programs),
    detail: fc.constantFrom('git status', 'npm test', '*.ts', undefined),
    time: fc.option(fc.integer({ min: 0, max: 5000 }), { nil: undefined }),
  })
  .map(({ name, program, detail, time }) => {
    const call: ToolCall = program === undefined || name !== 'Bash' ? { name, shape: 'file_path' } : { name, shape: program, program };
    if (detail !== undefined) call.detail = detail;
    // Some times equal, some unreadable: the first and last seen must be chosen as the sort chose them.
    if (time !== undefined) call.time = time % 7 === 0 ? 'not a time' : new Date(Date.UTC(2026, 0, 1) + (time % 50) * 60_000).toISOString();
    return call;
  });

const sessionsArbitrary = fc
  .array(
    fc.record({
      calls: fc.array(callArbitrary, { maxLength: 30 }),
      requests: fc.array(fc.record({ text: fc.constantFrom('publish the release', 'fix the tests', 'add a column'), at: fc.nat(30) }), {
        maxLength: 3,
      }),
      loaded: fc.array(fc.constantFrom('release', 'db'), { maxLength: 2 }),
    }),
    { maxLength: 25 },
  )
  .map((list) => list.map((s, i): MinedSession => ({ id: `s${i % 20}`, file: `f${i % 3}.jsonl`, ...s })));

const toolsArbitrary = fc.array(fc.constantFrom(...names, 'Bash:git', 'Bash:npm'), { minLength: 1, maxLength: 4 });

describe('findOccurrences over the index', () => {
  it('finds exactly what the plain search over every call finds', () => {
    fc.assert(
      fc.property(sessionsArbitrary, toolsArbitrary, fc.boolean(), (sessions, tools, refine) => {
        const index = indexSessions(sessions, refine);
        const found = findOccurrences(tools, index).map((o) => [index.id(o.session), occurrenceSteps(index, o, tools.length)]);
        expect(found).toEqual(naiveOccurrences(tools, sessions, refine));
      }),
      { numRuns: 400 },
    );
  });

  it('finds a sequence taken from a session in that session', () => {
    fc.assert(
      fc.property(sessionsArbitrary, fc.nat(), fc.nat(), (sessions, pick, from) => {
        const session = sessions[pick % Math.max(1, sessions.length)];
        if (session === undefined || session.calls.length < 2) return;
        const start = from % (session.calls.length - 1);
        const tools = session.calls.slice(start, start + 2).map((c) => buildToken(c));
        if (tools[0] === tools[1]) return;
        const index = indexSessions(sessions);
        const found = findOccurrences(tools, index);
        expect(found.some((o) => sessions[o.session] === session)).toBe(true);
        expect(found.map((o) => [index.id(o.session), occurrenceSteps(index, o, tools.length)])).toEqual(
          naiveOccurrences(tools, sessions, true),
        );
      }),
      { numRuns: 200 },
    );
  });

  it("a pattern's sessions and times are those of the plain search (times sorted, as the evidence read them before)", () => {
    fc.assert(
      fc.property(sessionsArbitrary, toolsArbitrary, (sessions, tools) => {
        const naive = naiveOccurrences(tools, sessions, true);
        const byId = new Map(sessions.map((s) => [s.id, s]));
        const times = naive
          .flatMap(([id, steps]) => steps.flat().map((i) => byId.get(id)?.calls[i]?.time))
          .filter((t): t is string => t !== undefined && !Number.isNaN(Date.parse(t)))
          .sort((a, b) => Date.parse(a) - Date.parse(b));
        const { evidence } = buildPatternEvidence(tools, indexSessions(sessions));
        expect(evidence.sessions).toEqual([...new Set(naive.map(([id]) => id))]);
        expect([evidence.first_seen, evidence.last_seen]).toEqual([times[0], times.at(-1)]);
      }),
      { numRuns: 300 },
    );
  });
});
