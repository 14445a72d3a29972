import type { RecordSink } from './collector.js';
import { isObject, parseArguments, textOf, type JsonObject, type RecordOutcome } from './records.js';

export const codexRecordTypes = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

/**
 * OpenAI Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`):
 * one session per file, named by `session_meta.payload.id`; tool calls are
 * `response_item`s of type `function_call` (JSON-string arguments),
 * `custom_tool_call` (free-form input, e.g. apply_patch), `local_shell_call`
 * and `web_search_call`. `event_msg` lines repeat what happened and are ignored.
 */
export function createCodexHandler(): (record: JsonObject, sink: RecordSink) => RecordOutcome {
  let session: string | undefined;
  return (record, sink) => {
    const type = record.type;
    if (typeof type !== 'string' || !codexRecordTypes.has(type)) return 'unknown';
    const payload = record.payload;
    if (!isObject(payload)) {
      sink.skip(`${type} records without a payload`);
      return 'handled';
    }
    if (type === 'session_meta' && typeof payload.id === 'string') session ??= payload.id;
    if (type !== 'response_item') return 'handled';
    const id = session ?? sink.defaultSession;
    switch (payload.type) {
      case 'function_call':
        sink.call(id, payload.name, parseArguments(payload.arguments), record.timestamp);
        break;
      case 'custom_tool_call':
        sink.call(id, payload.name, undefined, record.timestamp);
        break;
      case 'local_shell_call':
        sink.call(id, 'local_shell', payload.action, record.timestamp);
        break;
      case 'web_search_call':
        sink.call(id, 'web_search', payload.action, record.timestamp);
        break;
      case 'message':
        if (payload.role === 'user') sink.userText(id, textOf(payload.content), record.timestamp);
        break;
      default:
        break;
    }
    return 'handled';
  };
}
