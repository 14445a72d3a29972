import type { RecordSink } from './collector.js';
import { isObject, stringOr, type JsonObject, type RecordOutcome } from './records.js';

/** An `opencode export` document: session `info` beside its `messages`, each `{info, parts}`. */
export function isOpenCodeExport(record: JsonObject): boolean {
  if (!isObject(record.info) || !Array.isArray(record.messages)) return false;
  const first = record.messages.find(isObject);
  return first === undefined || (isObject(first.info) && Array.isArray(first.parts));
}

function timeOf(value: unknown, key: 'created' | 'start'): unknown {
  return isObject(value) ? value[key] : undefined;
}

function readParts(parts: readonly unknown[], role: unknown, messageTime: unknown, session: string, sink: RecordSink, seen: Set<string>) {
  for (const part of parts) {
    if (!isObject(part)) {
      sink.skip('message parts that are not objects');
      continue;
    }
    // Synthetic text is what OpenCode adds to a turn (file contents, reminders), not what the person typed.
    if (role === 'user' && part.type === 'text' && part.synthetic !== true) sink.userText(session, part.text, messageTime);
    if (part.type !== 'tool') continue;
    if (typeof part.callID === 'string') {
      if (seen.has(part.callID)) continue;
      seen.add(part.callID);
    }
    const state = isObject(part.state) ? part.state : {};
    sink.call(session, part.tool, state.input, timeOf(state.time, 'start') ?? messageTime);
  }
}

/**
 * `opencode export [sessionID]` output (sst/opencode, now anomalyco/opencode:
 * `packages/opencode/src/cli/cmd/export.ts` writes `{info, messages: [{info,
 * parts}], todos}`; the types are in `src/session/message-v2.ts`). A call is a
 * part of type `tool`: `{callID, tool, state: {status, input, time: {start}}}`;
 * the person's words are the user message's non-synthetic `text` parts. Times
 * are Unix milliseconds.
 */
export function readOpenCodeDocument(doc: unknown, sink: RecordSink): RecordOutcome {
  if (!isObject(doc) || !isObject(doc.info) || !Array.isArray(doc.messages)) return 'unknown';
  const session = stringOr(doc.info.id, sink.defaultSession);
  const seen = new Set<string>();
  if (doc.messages.length === 0) sink.skip('sessions without messages');
  for (const message of doc.messages) {
    if (!isObject(message) || !isObject(message.info) || !Array.isArray(message.parts)) {
      sink.skip('messages without info and parts');
      continue;
    }
    const time = timeOf(message.info.time, 'created');
    if (message.info.role === 'user') sink.userText(session, undefined, time);
    readParts(message.parts, message.info.role, time, session, sink, seen);
  }
  return 'handled';
}
