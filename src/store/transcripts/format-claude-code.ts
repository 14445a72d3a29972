import type { RecordSink } from './collector.js';
import { isObject, textOf, type JsonObject, type RecordOutcome } from './records.js';

// Record types Claude Code writes that carry no tool calls.
const otherTypes = new Set([
  'system',
  'summary',
  'progress',
  'file-history-snapshot',
  'queue-operation',
  'attachment',
  'result',
  'custom-title',
  'tag',
]);

/**
 * Claude Code `~/.claude/projects/**.jsonl`. The content blocks of one API
 * message arrive as several lines sharing `message.id`, and a resumed session
 * can repeat lines, so a tool_use block is counted once per block id in its session (`sink.repeated`: the ids a
 * session saw go with it when it is handed on, so a file of a million sessions does not hold them all).
 * Subagent files (`subagents/agent-*.jsonl`) carry the parent's sessionId
 * plus an agentId: they are sessions of their own.
 */
export function createClaudeCodeHandler(): (record: JsonObject, sink: RecordSink) => RecordOutcome {
  let lastSession: string | undefined;
  return (record, sink) => {
    const type = record.type;
    if (typeof type !== 'string') return 'unknown';
    if (otherTypes.has(type)) return 'handled';
    if (type !== 'user' && type !== 'assistant') return 'unknown';
    const base = typeof record.sessionId === 'string' ? record.sessionId : (lastSession ?? sink.defaultSession);
    lastSession = base;
    // Older versions wrote subagent turns inline, marked isSidechain, without an agentId.
    const session =
      typeof record.agentId === 'string' ? `${base}/${record.agentId}` : record.isSidechain === true ? `${base}/sidechain` : base;
    const message = record.message;
    if (!isObject(message) || !('content' in message)) {
      sink.skip(`${type} records without a message`);
      return 'handled';
    }
    if (type === 'user') {
      if (Array.isArray(message.content))
        for (const block of message.content)
          if (isObject(block) && block.type === 'tool_result') sink.result(block.tool_use_id, block.is_error === true);
      // Text the client wrote in the person's name (a loaded skill's body, a caveat, the summary that
      // continues a compacted session) is not a request: reading it as one named drafts after it.
      const injected = record.isMeta === true || record.isCompactSummary === true || record.isVisibleInTranscriptOnly === true;
      sink.userText(session, injected ? undefined : textOf(message.content), record.timestamp);
      return 'handled';
    }
    if (!Array.isArray(message.content)) return 'handled';
    for (const block of message.content) {
      if (!isObject(block) || block.type !== 'tool_use') continue;
      if (typeof block.id === 'string' && sink.repeated(session, block.id)) continue;
      sink.call(session, block.name, block.input, record.timestamp, block.id);
    }
    return 'handled';
  };
}
