import type { RecordSink } from './collector.js';
import { isObject, stringOr, textOf, type RecordOutcome } from './records.js';

/**
 * Gemini CLI sessions (`~/.gemini/tmp/<project>/chats/session-*.json`):
 * `{sessionId, projectHash, messages: [{type: "user"|"gemini"|…, content, toolCalls: [{name, args}]}]}`.
 */
export function readGeminiDocument(doc: unknown, sink: RecordSink): RecordOutcome {
  if (!isObject(doc) || !Array.isArray(doc.messages)) return 'unknown';
  const session = stringOr(doc.sessionId, sink.defaultSession);
  let messages = 0;
  for (const message of doc.messages) {
    if (!isObject(message)) {
      sink.skip('messages that are not objects');
      continue;
    }
    messages += 1;
    if (message.type === 'user') sink.userText(session, textOf(message.content), message.timestamp);
    if (!Array.isArray(message.toolCalls)) continue;
    for (const call of message.toolCalls) {
      if (isObject(call)) sink.call(session, call.name, call.args, call.timestamp ?? message.timestamp);
      else sink.skip('tool calls that are not objects');
    }
  }
  if (messages === 0) sink.skip('sessions without messages');
  return 'handled';
}
