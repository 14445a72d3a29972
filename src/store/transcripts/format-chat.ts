import type { RecordSink } from './collector.js';
import { isObject, parseArguments, stringOr, type RecordOutcome } from './records.js';

function readToolCalls(message: Record<string, unknown>, session: string, sink: RecordSink): void {
  const time = message.timestamp ?? message.created_at;
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      const fn = isObject(call) ? call.function : undefined;
      if (isObject(fn)) sink.call(session, fn.name, parseArguments(fn.arguments), time);
      else sink.skip('tool calls without a function');
    }
  } else if (isObject(message.function_call)) {
    sink.call(session, message.function_call.name, parseArguments(message.function_call.arguments), time);
  }
}

/**
 * OpenAI-style chat: `{"messages": [...]}` (or a bare list of messages), the
 * assistant's calls in `tool_calls[].function {name, arguments}` or the older
 * `function_call`.
 */
export function readChatDocument(doc: unknown, sink: RecordSink): RecordOutcome {
  const messages = Array.isArray(doc) ? doc : isObject(doc) && Array.isArray(doc.messages) ? doc.messages : undefined;
  if (messages === undefined) return 'unknown';
  const session = isObject(doc) ? stringOr(doc.id ?? doc.session_id, sink.defaultSession) : sink.defaultSession;
  for (const message of messages) {
    if (!isObject(message)) {
      sink.skip('messages that are not objects');
      continue;
    }
    if (message.role === 'user') sink.userText(session, message.content, message.timestamp);
    if (message.role === 'assistant') readToolCalls(message, session, sink);
  }
  return 'handled';
}
