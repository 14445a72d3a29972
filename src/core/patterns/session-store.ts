import type { EvidenceCall, EvidenceSession, SessionIndex } from './evidence.js';
import { buildToken, TokenTable } from './tokens.js';
import type { TranscriptSession } from './types.js';

/** Strings kept once each: a detail, a request or a file name recurs across thousands of sessions. */
class StringTable {
  readonly values: string[] = [];
  private readonly ids = new Map<string, number>();

  intern(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.ids.set(value, id);
      this.values.push(value);
    }
    return id;
  }
}

const none = -1;

/**
 * The sessions a detect run reads, kept only as far as mining and drafting read them: each call's token, detail
 * and time, each request's text and place, the skills a session loaded. Columns of numbers and interned strings,
 * not a `TranscriptSession` per session: a million tiny sessions held whole (their calls' arguments, shapes,
 * chains, one object each) took 2.3 GB, most of it objects a draft never reads. A draft reads a session back
 * through `session(s)`, built when a pattern's occurrences are searched, and let go with them.
 */
export class SessionStore {
  readonly table = new TokenTable();
  private readonly strings = new StringTable();
  /** Per call: its token id, its detail (a string id, or `none`), its time (or undefined). */
  private tokens: number[] = [];
  private readonly details: number[] = [];
  private readonly times: Array<string | undefined> = [];
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
      this.details.push(call.detail === undefined ? none : this.strings.intern(call.detail));
      this.times.push(call.time);
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

  /** Session `s` as the drafter reads it, built anew on each call. */
  session(s: number): EvidenceSession {
    const { starts } = this.packed();
    const from = starts[s] as number;
    const to = starts[s + 1] as number;
    const calls: EvidenceCall[] = [];
    for (let i = from; i < to; i += 1) {
      const detail = this.details[i] as number;
      const time = this.times[i];
      calls.push({
        ...(detail === none ? {} : { detail: this.strings.values[detail] }),
        ...(time === undefined ? {} : { time }),
      });
    }
    const requests = [];
    for (let r = this.requestStarts[s] as number; r < (this.requestStarts[s + 1] as number); r += 1)
      requests.push({ text: this.strings.values[this.requestTexts[r] as number] as string, at: this.requestAts[r] as number });
    const loaded = this.loaded.get(s);
    return {
      id: this.ids[s] as string,
      file: this.strings.values[this.files[s] as number] as string,
      calls,
      requests,
      ...(loaded === undefined ? {} : { loaded }),
    };
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
    return {
      count: this.sessions,
      session: (s) => this.session(s),
      id: (s) => this.ids[s] as string,
      firstRequest: (s) => {
        const r = this.requestStarts[s] as number;
        return r < (this.requestStarts[s + 1] as number) ? this.strings.values[this.requestTexts[r] as number] : undefined;
      },
      tokenIds: new Map(this.table.names.map((name, id) => [name, id])),
      tokens: tokens.subarray(0, at),
      starts,
      runStarts: runStarts.subarray(0, at),
    };
  }
}
