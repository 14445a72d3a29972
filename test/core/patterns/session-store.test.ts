import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeSessions } from '../../../bench/detect-transcripts.js';
import { buildDraftEvals } from '../../../src/core/evals/build-evals.js';
import { draftPatterns } from '../../../src/core/patterns/draft.js';
import { buildPatternEvidence } from '../../../src/core/patterns/evidence.js';
import { keyOf, listTaskWords } from '../../../src/core/patterns/task-words.js';
import { minePatterns } from '../../../src/core/patterns/mine.js';
import { indexSessions } from '../../../src/core/patterns/session-index.js';
import { exactTimeMs, SessionStore } from '../../../src/core/patterns/session-store.js';
import { callStepDetail } from '../../../src/core/patterns/shape.js';
import type { TranscriptSession } from '../../../src/core/patterns/types.js';
import { expandTranscriptPaths } from '../../../src/store/transcripts/expand-paths.js';
import { readTranscriptFiles } from '../../../src/store/transcripts/read-transcripts.js';
import { transcriptsRoot } from '../../helpers/corpus.js';
import { tempDir } from '../../helpers/tmp.js';

const stem = keyOf;

async function readSessions(files: readonly string[]): Promise<TranscriptSession[]> {
  const sessions: TranscriptSession[] = [];
  for await (const result of readTranscriptFiles(files)) for (const session of result.sessions) sessions.push(session);
  return sessions;
}

/**
 * The drafts of the packed store against the plain drafting of the sessions held whole (each its own evidence, as
 * detect kept them before): same patterns, same drafts, same evidence and evals, byte for byte.
 */
function expectSameDrafts(sessions: readonly TranscriptSession[], refine: boolean): number {
  const store = new SessionStore(refine);
  for (const session of sessions) store.add(session);
  const limits = { min_sessions: 2, min_confidence: 0, max_drafts: 20 };
  const patterns = minePatterns({ packed: store.packed(), vocabulary: store.table.names }, { minSessions: 2 });
  const whole = sessions.map((s) => (s.uses.length === 0 ? s : { ...s, loaded: s.uses.map((u) => u.skill) }));
  const plain = draftPatterns(patterns, [], { sessions: whole, refine, limits });
  const packed = draftPatterns(patterns, [], { sessions: store.index(), refine, limits });
  expect(JSON.stringify(packed)).toBe(JSON.stringify(plain));
  // The evals as read before each request was taken once: every session's first request, in session order.
  const plainIndex = indexSessions(whole, refine);
  for (const { tools, draft } of packed) {
    if (draft === undefined) continue;
    const found = buildPatternEvidence(tools, plainIndex);
    const task = new Set(found.task.words.map(stem));
    const first = (s: TranscriptSession) => s.requests[0]?.text ?? '';
    const unrelated = sessions
      .filter((s) => !found.sessionIds.has(s.id))
      .map(first)
      .filter((request) => request !== '' && !listTaskWords(request).some((w) => task.has(stem(w))));
    expect(draft.evals).toEqual(
      buildDraftEvals({
        name: draft.name,
        requests: [...found.evidence.requests, ...sessions.filter((s) => found.sessionIds.has(s.id)).map(first)],
        ...(found.evidence.ending === undefined ? {} : { ending: found.evidence.ending }),
        // The commands are the pattern's steps, compared above (the drafts as a whole); the requests are what differs.
        commands: (draft.evals?.evals.evals[0]?.assertions ?? []).flatMap((a) => /^The agent runs `(.+)`\.$/.exec(a)?.[1] ?? []),
        unrelated,
      }),
    );
  }
  expect(store.calls).toBe(sessions.reduce((n, s) => n + s.calls.length, 0));
  // Every session read back as it was read: its id, file, calls' details and times, requests, skills loaded.
  const index = store.index();
  for (let s = 0; s < sessions.length; s += 1) {
    const original = sessions[s] as TranscriptSession;
    const calls = Array.from({ length: index.callCount(s) }, (_, i) => [index.detail(s, i), index.time(s, i), index.timeMs(s, i)]);
    expect(calls).toEqual(original.calls.map((c) => [callStepDetail(c), c.time, Date.parse(c.time ?? '')]));
    expect([index.id(s), index.file(s), index.requests(s), index.loaded(s)]).toEqual([
      original.id,
      original.file,
      original.requests,
      plainIndex.loaded(s),
    ]);
  }
  expect([index.tokens, index.starts, index.runStarts]).toEqual([plainIndex.tokens, plainIndex.starts, plainIndex.runStarts]);
  return plain.filter((p) => p.draft !== undefined).length;
}

describe('SessionStore drafts as the sessions held whole do', () => {
  it('on the corpus transcripts, refined and not', async () => {
    const { files } = await expandTranscriptPaths([join(transcriptsRoot, '**', '*')], { cwd: transcriptsRoot });
    const sessions = await readSessions(files);
    expect(sessions.length).toBeGreaterThan(0);
    expectSameDrafts(sessions, true);
    expectSameDrafts(sessions, false);
  });

  it('keeps times in any format as written', () => {
    const times = ['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00Z', '2026-01-01 10:00', 'not a time', '', undefined];
    const store = new SessionStore();
    store.add({
      id: 's',
      file: 'f',
      format: 'claude-code',
      calls: times.map((time) => ({ name: 'Read', shape: 'file_path', ...(time === undefined ? {} : { time }) })),
      uses: [],
      requests: [],
    });
    const index = store.index();
    expect(times.map((_, i) => index.time(0, i))).toEqual(times);
    expect(times.map((_, i) => index.timeMs(0, i))).toEqual(times.map((t) => Date.parse(t ?? '')));
  });

  it('takes a time as a number exactly when the number gives it back as written', () => {
    /** The plain check the fast one stands in for. */
    const roundTrip = (time: string): number => {
      const ms = Date.parse(time);
      return !Number.isNaN(ms) && new Date(ms).toISOString() === time ? ms : NaN;
    };
    const digits = (n: number) => fc.integer({ min: 0, max: 10 ** n - 1 }).map((v) => String(v).padStart(n, '0'));
    // Every field drawn over all its digits, so that out-of-range months, days (February 30), hours, minutes and
    // seconds come up, beside valid times, mangled ones and times in other forms.
    const nearIso = fc
      .tuple(digits(4), digits(2), digits(2), digits(2), digits(2), digits(2), digits(3))
      .map(([y, mo, d, h, mi, s, ms]) => `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`);
    const valid = fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }).map((ms) => new Date(ms).toISOString());
    const mangled = fc.tuple(valid, fc.nat(23), fc.string({ maxLength: 2 })).map(([t, at, s]) => t.slice(0, at) + s + t.slice(at + 1));
    fc.assert(
      fc.property(fc.oneof(nearIso, valid, mangled, fc.string()), (time) => {
        expect(exactTimeMs(time)).toBe(roundTrip(time));
      }),
      { numRuns: 20_000 },
    );
    for (const time of ['2026-02-29T00:00:00.000Z', '2024-02-29T00:00:00.000Z', '2026-04-31T23:59:59.999Z', '2026-12-31T23:59:59.999Z'])
      expect(exactTimeMs(time)).toBe(roundTrip(time));
  });

  it('on generated sessions with planted procedures', async () => {
    const dir = tempDir();
    await writeSessions((f) => join(dir, `${f}.jsonl`), { sessions: 3000, calls: 30_000, files: 3, seed: 5 });
    const sessions = await readSessions([0, 1, 2].map((f) => join(dir, `${f}.jsonl`)));
    expect(expectSameDrafts(sessions, true)).toBeGreaterThan(0);
  });
});
