import type { RecordSink } from './collector.js';
import { isObject, stringOr, textOf, type JsonObject, type LineHandler } from './records.js';

/** A session's messages by id, in the order each id first appeared (a re-appended message keeps its place). */
type Messages = Map<string, unknown>;

/** A Gemini JSONL header or a legacy whole-session document: `{sessionId, projectHash, …}`. */
export function isGeminiHeader(record: JsonObject): boolean {
  return typeof record.sessionId === 'string' && typeof record.projectHash === 'string';
}

const messageTypes = new Set(['user', 'gemini', 'info', 'error', 'warning']);

/**
 * The `$set` and `$rewindTo` update lines of a Gemini JSONL session, and its
 * message records (`{id, type, content}`: no `message` or `sessionId`, which
 * Claude Code's lines carry), for a file whose header line was lost.
 */
export function isGeminiUpdate(record: JsonObject): boolean {
  if (isObject(record.$set) || typeof record.$rewindTo === 'string') return true;
  return (
    typeof record.id === 'string' &&
    typeof record.type === 'string' &&
    messageTypes.has(record.type) &&
    'content' in record &&
    !('message' in record) &&
    !('sessionId' in record)
  );
}

function loadMessages(list: readonly unknown[], into: Messages): void {
  into.clear();
  list.forEach((message, index) => into.set(isObject(message) && typeof message.id === 'string' ? message.id : `#${index}`, message));
}

/** Gemini's rewind: the message and everything after it go; an id it never saw clears the session. */
function rewind(messages: Messages, id: string): void {
  if (!messages.has(id)) {
    messages.clear();
    return;
  }
  let found = false;
  for (const key of [...messages.keys()]) {
    if (key === id) found = true;
    if (found) messages.delete(key);
  }
}

function emitMessage(message: unknown, session: string, sink: RecordSink): void {
  if (!isObject(message)) {
    sink.skip('messages that are not objects');
    return;
  }
  if (message.type === 'user') sink.userText(session, textOf(message.content), message.timestamp);
  if (!Array.isArray(message.toolCalls)) return;
  for (const call of message.toolCalls) {
    if (isObject(call)) sink.call(session, call.name, call.args, call.timestamp ?? message.timestamp);
    else sink.skip('tool calls that are not objects');
  }
}

/**
 * Gemini CLI sessions (`~/.gemini/tmp/<project>/chats/session-*.jsonl`; shape
 * from google-gemini/gemini-cli `packages/core/src/services/chatRecordingService.ts`
 * and `chatRecordingTypes.ts`): a header `{sessionId, projectHash, startTime, kind}`,
 * then message records `{id, type: "user"|"gemini"|…, content, toolCalls: [{id, name, args}]}`
 * appended whole again each time they change (tool results, tokens), `{$set: {…}}`
 * metadata updates (`$set.messages` replaces the list) and `{$rewindTo: id}`.
 * The session is what Gemini would resume: the last version of each message,
 * so a call is counted once however often its message was re-written, and
 * rewound turns are left out. Older versions wrote one JSON document
 * (`session-*.json`, `{sessionId, projectHash, messages}`), read the same way.
 */
export function createGeminiHandler(): LineHandler {
  const sessions = new Map<string, Messages>();
  let current: string | undefined;
  const messagesOf = (session: string): Messages => {
    let messages = sessions.get(session);
    if (messages === undefined) sessions.set(session, (messages = new Map<string, unknown>()));
    return messages;
  };
  const handle = (record: JsonObject, sink: RecordSink) => {
    const session = current ?? sink.defaultSession;
    if (typeof record.$rewindTo === 'string') {
      rewind(messagesOf(session), record.$rewindTo);
      return 'handled' as const;
    }
    if (isObject(record.$set)) {
      if (Array.isArray(record.$set.messages)) loadMessages(record.$set.messages, messagesOf(session));
      return 'handled' as const;
    }
    if (typeof record.id === 'string' && 'type' in record) {
      messagesOf(session).set(record.id, record);
      return 'handled' as const;
    }
    if (isGeminiHeader(record) || Array.isArray(record.messages)) {
      current = stringOr(record.sessionId, sink.defaultSession);
      const messages = messagesOf(current);
      if (Array.isArray(record.messages)) {
        if (record.messages.length === 0) sink.skip('sessions without messages');
        loadMessages(record.messages, messages);
      }
      return 'handled' as const;
    }
    return 'unknown' as const;
  };
  const finish = (sink: RecordSink) => {
    for (const [session, messages] of sessions) for (const message of messages.values()) emitMessage(message, session, sink);
  };
  return Object.assign(handle, { finish });
}
