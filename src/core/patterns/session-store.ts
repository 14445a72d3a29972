import type { SessionIndex } from './session-index.js';
import { callStepDetail } from './shape.js';
import { buildToken, TokenTable } from './tokens.js';
import type { SessionRequest, TranscriptSession } from './types.js';

const none = -1;

/** `toISOString`'s form, each field in its range; only the day may still name no date (February 30). */
const isoTime = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/**
 * The milliseconds `time` stands for when the number gives it back as written (`new Date(ms).toISOString() === time`),
 * else NaN. A time in `toISOString`'s form with fields in range and a day of at most 28 always does, so only the
 * others take the round trip, which was a tenth of `detect` at 2 M calls (1.2 µs a time, 0.3 µs this way).
 * `test/core/patterns/session-store.test.ts` checks this against the round trip.
 */
export function exactTimeMs(time: string): number {
  if (!isoTime.test(time)) return NaN;
  const ms = Date.parse(time);
  const day = (time.charCodeAt(8) - 48) * 10 + time.charCodeAt(9) - 48;
  return day <= 28 || new Date(ms).toISOString() === time ? ms : NaN;
}

/**
 * A call's time as a number when the number gives it back as written (`toISOString`, as Claude Code writes them):
 * 8 bytes instead of a 24-character string, which was half of what a million tiny sessions kept. Any other
 * (another format, not a time) is kept as written in `others`, and NaN stands in.
 */
function packTime(time: string | undefined, call: number, others: Map<number, string>): number {
  if (time === undefined) return NaN;
  const ms = exactTimeMs(time);
  if (Number.isNaN(ms)) others.set(call, time);
  return ms;
}

/**
 * The sessions a detect run reads, kept only as far as mining and drafting read them: each call's token, detail
 * and time, each request's text and place, the skills a session loaded. Columns of numbers and interned strings,
 * not a `TranscriptSession` per session: a million tiny sessions held whole (their calls' arguments, shapes,
 * chains, one object each) is most of it objects a draft never reads. A draft reads the sessions through
 * `index()`, by number.
 */
export class SessionStore {
  readonly table = new TokenTable();
  /** Strings kept once each: a detail, a request or a file name recurs across thousands of sessions. */
  private readonly strings = new TokenTable();
  /** Per call: its token id, its detail (a string id, or `none`), its time (or undefined). */
  private tokens: number[] = [];
  private readonly details: number[] = [];
  private readonly times: number[] = [];
  /** The times a number would not give back as written (another format, not a time), by call. */
  private readonly otherTimes = new Map<number, string>();
  /** Per session: where its calls and its requests start, its id, its file (a string id). */
  private starts: number[] = [0];
  private readonly requestStarts: number[] = [0];
  private readonly ids: string[] = [];
  private readonly files: number[] = [];
  /** Per request: its text (a string id) and how many calls came before it. */
  private readonly requestTexts: number[] = [];
  private readonly requestAts: number[] = [];
  /** The skills a session loaded, for the few sessions that loaded any. */
  private readonly loaded = new Map<number, string[]>();
  private packedTokens: Int32Array | undefined;
  private packedStarts: Int32Array | undefined;

  constructor(private readonly refine = true) {}

  add(session: TranscriptSession): void {
    if (this.packedTokens !== undefined) throw new Error('SessionStore: add after packed()');
    for (const call of session.calls) {
      this.tokens.push(this.table.intern(buildToken(call, { refine: this.refine })));
      const detail = callStepDetail(call);
      this.details.push(detail === undefined ? none : this.strings.intern(detail));
      this.times.push(packTime(call.time, this.tokens.length - 1, this.otherTimes));
    }
    this.starts.push(this.tokens.length);
    for (const request of session.requests) {
      this.requestTexts.push(this.strings.intern(request.text));
      this.requestAts.push(request.at);
    }
    this.requestStarts.push(this.requestTexts.length);
    if (session.uses.length > 0)
      this.loaded.set(
        this.ids.length,
        session.uses.map((u) => u.skill),
      );
    this.ids.push(session.id);
    this.files.push(this.strings.intern(session.file));
  }

  get sessions(): number {
    return this.ids.length;
  }

  get calls(): number {
    return this.packedTokens?.length ?? this.tokens.length;
  }

  /** Every session's token ids end to end, as the miner reads them; adding ends here. */
  packed(): { tokens: Int32Array; starts: Int32Array } {
    if (this.packedTokens === undefined || this.packedStarts === undefined) {
      this.packedTokens = Int32Array.from(this.tokens);
      this.packedStarts = Int32Array.from(this.starts);
      this.tokens = [];
      this.starts = [];
    }
    return { tokens: this.packedTokens, starts: this.packedStarts };
  }

  private text(id: number): string {
    return this.strings.names[id] as string;
  }

  /** Session s's requests, built on each call (a pattern reads those of the sessions it occurs in, once each). */
  private requests(s: number): SessionRequest[] {
    const out: SessionRequest[] = [];
    for (let r = this.requestStarts[s] as number; r < (this.requestStarts[s + 1] as number); r += 1)
      out.push({ text: this.text(this.requestTexts[r] as number), at: this.requestAts[r] as number });
    return out;
  }

  /** The sessions indexed for drafting (`indexSessions` of them all, from the tokens already read). */
  index(): SessionIndex {
    const packed = this.packed();
    const total = packed.tokens.length;
    const tokens = new Int32Array(total);
    const runStarts = new Int32Array(total);
    const starts = new Int32Array(this.sessions + 1);
    let at = 0;
    for (let s = 0; s < this.sessions; s += 1) {
      starts[s] = at;
      const first = at;
      const from = packed.starts[s] as number;
      for (let i = from; i < (packed.starts[s + 1] as number); i += 1) {
        const id = packed.tokens[i] as number;
        if (at > first && tokens[at - 1] === id) continue;
        tokens[at] = id;
        runStarts[at] = i - from;
        at += 1;
      }
    }
    starts[this.sessions] = at;
    const call = (s: number, i: number) => (packed.starts[s] as number) + i;
    return {
      count: this.sessions,
      id: (s) => this.ids[s] as string,
      file: (s) => this.text(this.files[s] as number),
      callCount: (s) => (packed.starts[s + 1] as number) - (packed.starts[s] as number),
      detail: (s, i) => {
        const detail = this.details[call(s, i)] as number;
        return detail === none ? undefined : this.text(detail);
      },
      time: (s, i) => {
        const ms = this.times[call(s, i)] as number;
        return Number.isNaN(ms) ? this.otherTimes.get(call(s, i)) : new Date(ms).toISOString();
      },
      timeMs: (s, i) => {
        const ms = this.times[call(s, i)] as number;
        return Number.isNaN(ms) ? Date.parse(this.otherTimes.get(call(s, i)) ?? '') : ms;
      },
      requests: (s) => this.requests(s),
      firstRequest: (s) => {
        const r = this.requestStarts[s] as number;
        return r < (this.requestStarts[s + 1] as number) ? this.text(this.requestTexts[r] as number) : undefined;
      },
      loaded: (s) => this.loaded.get(s),
      tokenIds: new Map(this.table.names.map((name, id) => [name, id])),
      tokens: tokens.subarray(0, at),
      starts,
      runStarts: runStarts.subarray(0, at),
    };
  }
}
