import type { RecordSink } from './collector.js';
import { isObject, parseArguments, textOf, type JsonObject, type RecordOutcome } from './records.js';

export const codexRecordTypes = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

/** Response items, which older rollouts (before `payload` wrappers) wrote as bare lines. */
export const codexItemTypes = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'web_search_call',
]);

/** Older rollouts begin with `{id, timestamp, instructions}` and interleave `{record_type: "state"}` lines. */
export function isLegacyCodexHeader(record: JsonObject): boolean {
  return 'record_type' in record || ('instructions' in record && typeof record.id === 'string' && 'timestamp' in record);
}

/**
 * Whether a call's output says it failed: a shell call's `Process exited with code N` (N ≠ 0),
 * or the older JSON output's `metadata.exit_code`.
 */
export function codexOutputFailed(output: unknown): boolean {
  const text = typeof output === 'string' ? output : isObject(output) && typeof output.content === 'string' ? output.content : '';
  const exited = /^Process exited with code (-?\d+)$/m.exec(text);
  if (exited !== null) return exited[1] !== '0';
  const parsed = parseArguments(text);
  if (isObject(parsed) && isObject(parsed.metadata) && typeof parsed.metadata.exit_code === 'number')
    return parsed.metadata.exit_code !== 0;
  return false;
}

function readItem(item: JsonObject, session: string, sink: RecordSink, time: unknown): void {
  switch (item.type) {
    case 'function_call':
      sink.call(session, item.name, parseArguments(item.arguments), time, item.call_id);
      break;
    case 'custom_tool_call':
      sink.call(session, item.name, undefined, time, item.call_id);
      break;
    case 'function_call_output':
    case 'custom_tool_call_output':
      sink.result(item.call_id, codexOutputFailed(item.output));
      break;
    case 'local_shell_call':
      sink.call(session, 'local_shell', item.action, time);
      break;
    case 'web_search_call':
      sink.call(session, 'web_search', item.action, time);
      break;
    case 'message':
      if (item.role === 'user') sink.userText(session, textOf(item.content), time);
      break;
    default:
      break;
  }
}

/**
 * OpenAI Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`):
 * one session per file, named by `session_meta.payload.id`; tool calls are
 * `response_item`s of type `function_call` (JSON-string arguments),
 * `custom_tool_call` (free-form input, e.g. apply_patch), `local_shell_call`
 * and `web_search_call`. `event_msg` lines repeat what happened and are ignored.
 * Older rollouts wrote the same items as bare lines after an `{id, instructions}` header.
 */
export function createCodexHandler(): (record: JsonObject, sink: RecordSink) => RecordOutcome {
  let session: string | undefined;
  return (record, sink) => {
    const type = record.type;
    if (typeof type !== 'string') {
      if (!isLegacyCodexHeader(record)) return 'unknown';
      if (typeof record.id === 'string') session ??= record.id;
      return 'handled';
    }
    if (codexItemTypes.has(type) && !('payload' in record)) {
      readItem(record, session ?? sink.defaultSession, sink, record.timestamp);
      return 'handled';
    }
    if (!codexRecordTypes.has(type)) return 'unknown';
    const payload = record.payload;
    if (!isObject(payload)) {
      sink.skip(`${type} records without a payload`);
      return 'handled';
    }
    if (type === 'session_meta' && typeof payload.id === 'string') session ??= payload.id;
    if (type === 'response_item') readItem(payload, session ?? sink.defaultSession, sink, record.timestamp);
    return 'handled';
  };
}
