import type { RecordSink } from './collector.js';
import { isObject, parseArguments, stringOr, type JsonObject, type RecordOutcome } from './records.js';

// Agent actions that are not tool calls.
const notTools = new Set(['message', 'system', 'recall', 'change_agent_state', 'null']);

/** The call's arguments as the model sent them, found by tool_call_id in the model response. */
function modelArguments(metadata: JsonObject): unknown {
  const response = metadata.model_response;
  const choices = isObject(response) && Array.isArray(response.choices) ? response.choices : [];
  for (const choice of choices) {
    const calls = isObject(choice) && isObject(choice.message) ? choice.message.tool_calls : undefined;
    if (!Array.isArray(calls)) continue;
    for (const call of calls) {
      if (isObject(call) && call.id === metadata.tool_call_id && isObject(call.function)) return parseArguments(call.function.arguments);
    }
  }
  return undefined;
}

function readEvent(event: unknown, session: string, sink: RecordSink): void {
  if (!isObject(event)) {
    sink.skip('events that are not objects');
    return;
  }
  if (event.source === 'user' && event.action === 'message' && isObject(event.args)) {
    sink.userText(session, event.args.content, event.timestamp);
    return;
  }
  if (event.source !== 'agent' || typeof event.action !== 'string') return;
  const metadata = isObject(event.tool_call_metadata) ? event.tool_call_metadata : undefined;
  if (metadata !== undefined) {
    sink.call(session, metadata.function_name, modelArguments(metadata) ?? event.args, event.timestamp);
  } else if (!notTools.has(event.action)) {
    sink.call(session, event.action, event.args, event.timestamp);
  }
}

/**
 * OpenHands event streams: a JSON list of events (`tests/runtime/trajs/*.json`)
 * or an evaluation instance `{instance_id, history: [events]}` (one per line
 * of `output.jsonl`). A tool call is an agent action; its name is the model's
 * function (`execute_bash`, `str_replace_editor`) when recorded.
 */
export function readOpenHandsDocument(doc: unknown, sink: RecordSink): RecordOutcome {
  const events = Array.isArray(doc) ? doc : isObject(doc) && Array.isArray(doc.history) ? doc.history : undefined;
  if (events === undefined) return 'unknown';
  const session = isObject(doc) ? stringOr(doc.instance_id, sink.defaultSession) : sink.defaultSession;
  for (const event of events) readEvent(event, session, sink);
  return 'handled';
}
