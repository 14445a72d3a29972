import type { RecordSink } from './collector.js';
import { isObject, stringOr, type RecordOutcome } from './records.js';

const toolCallBlock = /<tool_call>([\s\S]*?)<\/tool_call>/g;

function readToolCalls(text: string, session: string, sink: RecordSink, time: unknown): void {
  for (const match of text.matchAll(toolCallBlock)) {
    let call: unknown;
    try {
      call = JSON.parse(match[1] ?? '');
    } catch {
      sink.skip('<tool_call> blocks that are not JSON');
      continue;
    }
    if (isObject(call)) sink.call(session, call.name, call.arguments, time);
    else sink.skip('<tool_call> blocks that are not objects');
  }
}

/**
 * Hermes Agent ShareGPT exports: `{"conversations": [{"from": "system"|"human"|"gpt"|"tool", "value"}]}`,
 * one conversation per JSONL line; the model's calls are
 * `<tool_call>{"name", "arguments"}</tool_call>` blocks inside `gpt` turns.
 */
export function readHermesDocument(doc: unknown, sink: RecordSink): RecordOutcome {
  if (!isObject(doc) || !Array.isArray(doc.conversations)) return 'unknown';
  const session = stringOr(doc.id ?? doc.session_id, sink.defaultSession);
  for (const turn of doc.conversations) {
    if (!isObject(turn) || typeof turn.value !== 'string') {
      sink.skip('turns without a text value');
      continue;
    }
    if (turn.from === 'human') sink.userText(session, turn.value, doc.timestamp);
    if (turn.from === 'gpt') readToolCalls(turn.value, session, sink, doc.timestamp);
  }
  return 'handled';
}
