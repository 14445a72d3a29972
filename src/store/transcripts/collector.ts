import { buildToolCall, type RefineMap } from '../../core/patterns/shape.js';
import { parseSkillLoads, parseSlashCommand } from '../../core/patterns/uses.js';
import { Redactor } from '../../core/privacy/redact.js';
import type { SessionRequest, SkillUse, Skipped, ToolCall, TranscriptFormat, TranscriptSession } from '../../core/patterns/types.js';

/** What a format handler reports while it reads records. */
export interface RecordSink {
  readonly refine: RefineMap | false;
  /** The session a record belongs to when it names none. */
  readonly defaultSession: string;
  /** `id` is the call's id in the transcript, when it has one, so that its result can be matched to it. */
  call(session: string, name: unknown, args: unknown, time?: unknown, id?: unknown): void;
  /** The result of the call with this id came back; `error` when the transcript marks it as failed. */
  result(id: unknown, error: boolean): void;
  /**
   * Whether this session already had a call with this id (a line written again: a resumed session repeats lines);
   * remembers it otherwise. Per session, so that what is remembered goes with the session when it is handed on.
   */
  repeated(session: string, id: string): boolean;
  userText(session: string, text: unknown, time?: unknown): void;
  skip(reason: string, count?: number): void;
}

/** Everything read from one file, or a part of it (`partial`). */
export interface FileReadResult {
  file: string;
  format: TranscriptFormat | undefined;
  /** Sessions with at least one tool call. */
  sessions: TranscriptSession[];
  uses: SkillUse[];
  skipped: Skipped[];
  /**
   * More of the file follows: sessions handed on before the file ended (see `SessionCollector`), with their uses.
   * A partial result never carries `skipped`; the file's last result does, and is the one to count a file by.
   */
  partial?: true;
}

/** What the collector holds of a session until it is handed on. */
interface OpenSession {
  id: string;
  calls: ToolCall[];
  requests: SessionRequest[] | undefined;
  uses: SkillUse[] | undefined;
  /** Call ids seen (`repeated`). */
  seen: Set<string> | undefined;
  /** When a record last named it (records read so far): the least recent are handed on first. */
  touched: number;
}

/**
 * How many sessions a file may have open before the least recently named are handed on (`onPart`): a file of a
 * million sessions is then held a few thousand at a time. A file with fewer sessions, or whose sessions come one
 * after another (Claude Code appends a session's lines as it runs), reads exactly as when it is held whole.
 */
export const maxOpenSessions = 1000;

function timeOf(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) {
    // Unix seconds or milliseconds.
    const ms = value < 1e12 ? value * 1000 : value;
    const date = new Date(ms);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  }
  return undefined;
}

const maxRequests = 20;
const maxSessionIdChars = 200;
// C0 and C1 controls, line and paragraph separators, bidi overrides: nothing a commit message or a report should carry.
const unsafeIdChars = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g;

/**
 * A session id as it may enter a commit message, a report or a pull request: control characters, line breaks
 * and bidi overrides (a transcript can hold anything) become a space; at most 200 characters.
 */
export function safeSessionId(id: string): string {
  const clean = id.replace(unsafeIdChars, ' ').trim();
  const short = clean.length > maxSessionIdChars ? clean.slice(0, maxSessionIdChars) : clean;
  return short === '' ? 'session' : short;
}
const maxSkipLines = 10;
const maxRequestChars = 600;

/**
 * A person's words, or undefined for what only looks like a message: harness
 * notes (`<system-reminder>`, `<command-name>`, Codex's `<environment_context>`),
 * Claude Code's "Caveat:" lines, interrupted-turn markers, a loaded skill's text.
 */
function cleanRequest(text: string): string | undefined {
  const trimmed = text.trim();
  if (
    trimmed === '' ||
    trimmed.startsWith('<') ||
    /^(Caveat:|\[Request interrupted|# AGENTS\.md|Base directory for this skill:|This session is being continued from a previous conversation)/.test(
      trimmed,
    )
  )
    return undefined;
  return collapseSpaces(trimmed, maxRequestChars);
}

/**
 * The words of a text joined by single spaces, at most `max` characters, as one flat string. Not
 * `replace(/\s+/g, ' ')`: V8 keeps its result as a tree of the pieces (840 bytes held for a 35-character
 * request, most of a tiny session's memory); nor a slice of a long text, which is a view that keeps it whole.
 */
function collapseSpaces(text: string, max: number): string {
  const words = text.split(/\s+/);
  let n = 0;
  for (let length = -1; n < words.length && length < max; n += 1) length += (words[n] as string).length + 1;
  const kept = words.slice(0, n);
  kept[n - 1] = (kept[n - 1] as string).slice(0, max);
  return kept.join(' ').slice(0, max);
}

/**
 * The arguments a call keeps anything of (see `buildToolCall`, `parseSkillLoads`): the shell command (`refine`'s key,
 * `command`, `cmd`), a file path (its extension, a SKILL.md's folder), the skill a loader names.
 */
const keptKeys = new Set([
  'command',
  'cmd',
  'file_path',
  'path',
  'absolute_path',
  'filename',
  'filePath',
  'notebook_path',
  'file',
  'skill',
  'name',
  'skill_name',
]);

/**
 * A call's arguments as far as it keeps them: every key (the call's shape is its keys), the strings under a kept
 * key redacted, every other value `null`. Redacting all of them cost a sixth of reading, mostly on text a call
 * drops (an Edit's old and new strings, a Write's content); a value no reader expects is never passed on unredacted.
 */
export function keptArguments(args: unknown, redactor: Redactor, commandKey: string | undefined): Record<string, unknown> | undefined {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(args)) {
    const value = (args as Record<string, unknown>)[key];
    kept[key] = keptKeys.has(key) || key === commandKey ? keptValue(value, redactor) : null;
  }
  return kept;
}

function keptValue(value: unknown, redactor: Redactor): unknown {
  if (typeof value === 'string') return redactor.text(value);
  if (Array.isArray(value) && value.every((part) => typeof part === 'string')) return value.map((part: string) => redactor.text(part));
  return null;
}

/**
 * Gathers one file's calls into sessions (in first-seen order) and counts what was skipped, by reason. Given `onPart`,
 * sessions are handed on before the file ends: when more than twice `maxOpenSessions` are open, the least recently
 * named half goes (in first-seen order). A session named again after it was handed on is read as a new one, and
 * counted in `skipped` (so nothing is split silently).
 */
export class SessionCollector implements RecordSink {
  defaultSession: string;
  format: TranscriptFormat | undefined;
  private readonly open = new Map<string, OpenSession>();
  /** The session the last record named, and its state: records mostly follow one session. */
  private current: OpenSession | undefined;
  private records = 0;
  /** Sessions handed on (by id), to notice one named again. */
  private readonly closed = new Set<string>();
  private emptyCount = 0;
  private readonly skips = new Map<string, number>();
  private readonly skipLines = new Map<string, number[]>();
  /**
   * Calls whose result has not been seen yet, by their id: an entry lives only until its result arrives. The latest
   * call is held apart (`lastId`, `lastCall`): its result is nearly always the next record, and a map emptied and
   * refilled on every call reallocated its table each time (the third of reading a result).
   */
  private readonly awaiting = new Map<string, ToolCall>();
  private lastId: string | undefined;
  private lastCall: ToolCall | undefined;
  /** The line being read, for line formats: each skip while it is set names it. */
  line: number | undefined;
  /**
   * One copy of each shape and detail string in the file: calls repeat a few hundred of them, and each call
   * building its own was a third of the memory a million tiny sessions held.
   */
  private readonly strings = new Map<string, string>();

  /** The last session id made safe, and what it became: records name the same session line after line. */
  private lastRawId: string | undefined;
  private lastSafeId = '';

  constructor(
    readonly file: string,
    readonly refine: RefineMap | false,
    defaultSession: string,
    private readonly redactor: Redactor = new Redactor(),
    private readonly onPart?: (part: FileReadResult) => void,
  ) {
    this.defaultSession = defaultSession;
  }

  /** `safeSessionId`, remembered for the last id (the regular expression was 2 % of reading). */
  private safeId(raw: string): string {
    if (raw !== this.lastRawId) {
      this.lastRawId = raw;
      this.lastSafeId = safeSessionId(raw);
    }
    return this.lastSafeId;
  }

  /** The session's state, opened on first sight (`id` already safe). */
  private session(id: string): OpenSession {
    this.records += 1;
    const current = this.current;
    if (current !== undefined && current.id === id) {
      current.touched = this.records;
      return current;
    }
    let state = this.open.get(id);
    if (state === undefined) {
      if (this.closed.has(id)) {
        this.closed.delete(id);
        this.skip(`sessions continued after ${maxOpenSessions} or more others began (read as two sessions)`);
      }
      state = { id, calls: [], requests: undefined, uses: undefined, seen: undefined, touched: 0 };
      this.open.set(id, state);
    }
    state.touched = this.records;
    this.current = state;
    if (this.onPart !== undefined && this.open.size > maxOpenSessions * 2) this.handOn(maxOpenSessions);
    return state;
  }

  /** Hands on the `count` least recently named open sessions, in first-seen order. */
  private handOn(count: number): void {
    const touched = new Float64Array(this.open.size);
    let i = 0;
    for (const state of this.open.values()) touched[i++] = state.touched;
    const limit = touched.sort()[count - 1] as number;
    const out: OpenSession[] = [];
    for (const state of this.open.values()) if (state.touched <= limit && state !== this.current) out.push(state);
    for (const state of out) {
      this.open.delete(state.id);
      this.closed.add(state.id);
    }
    const { sessions, uses } = this.close(out);
    (this.onPart as (part: FileReadResult) => void)({ file: this.file, format: this.format, sessions, uses, skipped: [], partial: true });
  }

  /** Open sessions as the sessions and uses they hand on; those without calls are counted. */
  private close(states: Iterable<OpenSession>): { sessions: TranscriptSession[]; uses: SkillUse[] } {
    const sessions: TranscriptSession[] = [];
    const uses: SkillUse[] = [];
    for (const state of states) {
      if (state.uses !== undefined) for (const use of state.uses) uses.push(use);
      if (state.calls.length === 0) {
        this.emptyCount += 1;
        continue;
      }
      sessions.push({
        id: state.id,
        file: this.file,
        format: this.format ?? 'compact',
        // Copies as long as their contents: an array grown by push keeps room for 17 entries, 16 of them
        // empty in a session of one call, and the sessions outlive the file.
        calls: state.calls.slice(),
        uses: state.uses ?? [],
        requests: state.requests?.slice() ?? [],
      });
    }
    return { sessions, uses };
  }

  /** Registers a session that may turn out to have no calls (reported as such). */
  touch(session: string): void {
    this.session(this.safeId(session));
  }

  repeated(session: string, id: string): boolean {
    const state = this.session(this.safeId(session));
    if (state.seen === undefined) state.seen = new Set();
    else if (state.seen.has(id)) return true;
    state.seen.add(id);
    return false;
  }

  call(session: string, name: unknown, args: unknown, time?: unknown, id?: unknown): void {
    session = this.safeId(session);
    if (typeof name !== 'string' || name.trim() === '') {
      this.skip('tool calls without a name');
      return;
    }
    const at = timeOf(time);
    // Nothing private goes further than this line: the arguments a call keeps anything of are redacted as they
    // are read, and the rest (an edit's text, a file's content) is dropped unread.
    args = keptArguments(args, this.redactor, this.refine === false ? undefined : this.refine[name.trim()]);
    const call = buildToolCall(name.trim(), args, {
      refine: this.refine,
      time: at,
    });
    // The name too: a parsed line's strings are its own, and 2 M calls held 2 M copies of a few tool names.
    call.name = this.shared(call.name);
    call.shape = this.shared(call.shape);
    if (call.program !== undefined) call.program = this.shared(call.program);
    if (call.detail !== undefined) call.detail = this.shared(call.detail);
    const state = this.session(session);
    state.calls.push(call);
    if (typeof id === 'string' && id !== '') this.await(id, call);
    for (const skill of parseSkillLoads(call.name, args, call.program)) this.addUse(state, skill, at);
  }

  /** As `awaiting.set(id, call)`: a later call with the same id replaces an earlier one. */
  private await(id: string, call: ToolCall): void {
    if (this.lastId !== undefined && this.lastId !== id) this.awaiting.set(this.lastId, this.lastCall as ToolCall);
    if (this.awaiting.size > 0) this.awaiting.delete(id);
    this.lastId = id;
    this.lastCall = call;
  }

  result(id: unknown, error: boolean): void {
    if (typeof id !== 'string') return;
    let call: ToolCall | undefined;
    if (id === this.lastId) {
      call = this.lastCall;
      this.lastId = this.lastCall = undefined;
    } else {
      call = this.awaiting.get(id);
      if (call === undefined) return;
      this.awaiting.delete(id);
    }
    if (error && call !== undefined) call.error = true;
  }

  userText(session: string, text: unknown, time?: unknown): void {
    const state = this.session(this.safeId(session));
    if (typeof text !== 'string') return;
    const skill = parseSlashCommand(text);
    if (skill !== undefined) this.addUse(state, skill, timeOf(time));
    const request = cleanRequest(this.redactor.text(text));
    if (request === undefined) return;
    if (state.requests === undefined) state.requests = [];
    // A long session asks many things; the first few say what it is about, and memory stays bounded.
    if (state.requests.length < maxRequests) state.requests.push({ text: request, at: state.calls.length });
  }

  private shared(text: string): string {
    const known = this.strings.get(text);
    if (known !== undefined) return known;
    this.strings.set(text, text);
    return text;
  }

  private addUse(state: OpenSession, skill: string, time: string | undefined): void {
    const use = time === undefined ? { skill, session: state.id } : { skill, session: state.id, time };
    if (state.uses === undefined) state.uses = [use];
    else state.uses.push(use);
  }

  skip(reason: string, count = 1): void {
    this.skips.set(reason, (this.skips.get(reason) ?? 0) + count);
    if (this.line === undefined) return;
    let lines = this.skipLines.get(reason);
    if (lines === undefined) this.skipLines.set(reason, (lines = []));
    if (lines.length < maxSkipLines && lines.at(-1) !== this.line) lines.push(this.line);
  }

  /** The file's last result: the sessions still open, and everything skipped in the whole file. */
  finish(): FileReadResult {
    this.awaiting.clear();
    this.lastId = this.lastCall = undefined;
    this.current = undefined;
    this.strings.clear();
    this.closed.clear();
    const states = [...this.open.values()];
    this.open.clear();
    const { sessions, uses } = this.close(states);
    if (this.emptyCount > 0) this.skip('sessions without tool calls', this.emptyCount);
    if (this.records === 0 && this.skips.size === 0) this.skip('no sessions found');
    const skipped = [...this.skips].map(([reason, count]): Skipped => {
      const lines = this.skipLines.get(reason);
      return lines === undefined ? { file: this.file, reason, count } : { file: this.file, reason, count, lines };
    });
    return { file: this.file, format: this.format, sessions, uses, skipped };
  }
}
