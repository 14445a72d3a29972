import type { RecordSink } from './collector.js';
import { isObject, type JsonObject, type LineHandler } from './records.js';

/** A Cursor transcript line: `{role, message}` at the top, with no `type` (Claude Code puts `type` beside `message`). */
export function isCursorRecord(record: JsonObject): boolean {
  return (record.role === 'user' || record.role === 'assistant') && isObject(record.message) && !('type' in record);
}

/** Cursor wraps what the person typed in `<user_query>`; other blocks of the turn are attachments and context. */
function requestText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return typeof content === 'string' ? unwrapQuery(content) : undefined;
  for (const block of content) {
    if (isObject(block) && block.type === 'text' && typeof block.text === 'string') {
      const text = unwrapQuery(block.text);
      if (text !== undefined) return text;
    }
  }
  return undefined;
}

function unwrapQuery(text: string): string | undefined {
  const query = /<user_query>([\s\S]*?)<\/user_query>/.exec(text);
  if (query) return query[1];
  return text.trimStart().startsWith('<') ? undefined : text;
}

/**
 * Cursor Agent CLI and IDE agent transcripts
 * (`~/.cursor/projects/<workspace-slug>/agent-transcripts/<uuid>/<uuid>.jsonl`).
 * Cursor documents no schema; the shape is the one public readers of these
 * files record (e.g. the wire shape of a live `cursor-agent --print` probe,
 * cursor_version 2026.10.01): one message a line, `{role, message: {content:
 * [{type: "text"}, {type: "tool_use", name, input}, {type: "tool_result"}]}}`,
 * and `{type: "turn_ended", status}` after each turn. Lines carry no session
 * id or time: the file (its uuid) is the session.
 */
export function createCursorHandler(): LineHandler {
  const seen = new Set<string>();
  return (record: JsonObject, sink: RecordSink) => {
    if (record.type === 'turn_ended') return 'handled';
    if (!isCursorRecord(record)) return 'unknown';
    const session = sink.defaultSession;
    const content = (record.message as JsonObject).content;
    if (record.role === 'user') {
      sink.userText(session, requestText(content));
      return 'handled';
    }
    if (!Array.isArray(content)) return 'handled';
    for (const block of content) {
      if (!isObject(block) || block.type !== 'tool_use') continue;
      if (typeof block.id === 'string') {
        if (seen.has(block.id)) continue;
        seen.add(block.id);
      }
      sink.call(session, block.name, block.input);
    }
    return 'handled';
  };
}
